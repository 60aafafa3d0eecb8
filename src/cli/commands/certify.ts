import type { CertifyReport } from '../../testing/index.js';
import { painter } from '../style.js';
import { formatCertifyReport } from './certify-report.js';
import { defineCommand } from './command.js';
import { checkHttpUrl } from './sandbox-arguments.js';
import { CONTROL_ENVIRONMENT, callControl, common } from './sandbox-control-client.js';

/** `merchant-wallet certify <url>`: grades a webhook endpoint against a running sandbox. */
export const certifyCommand = defineCommand({
  name: 'certify',
  summary: 'grade your webhook endpoint against a running sandbox',
  description: `Sends your webhook endpoint what the service and an attacker would: a burst of 50
events, 10 concurrent copies of one, the same event 3 days later (sandbox clock), events out
of order, forged ones (a "completed" for a pending deposit, an unknown transaction, a changed
amount, currency or reference), malformed JSON, a 1 MiB body, an unknown event type, a made-up
token, and a slow status endpoint. Each check prints pass, warn or fail with a fix. Your
endpoint must read transactions back from this sandbox with the merchant's API key.
Only answers can be seen from here; certifyHandler() in your tests also counts effects.
Exit status 1 when a check failed.`,
  options: {
    json: { type: 'boolean', help: 'print the report as JSON' },
    app: {
      type: 'string',
      value: 'APP_ID',
      default: 'app_demo_shop',
      help: 'the merchant the endpoint acts for',
    },
    'timeout-ms': {
      type: 'integer',
      value: 'N',
      min: 100,
      max: 60_000,
      default: 5_000,
      help: "the sender's timeout: a later answer counts as none",
    },
    ...common,
  },
  positionals: { name: 'webhook URL', usage: '<url>', min: 1, max: 1 },
  environment: CONTROL_ENVIRONMENT,
  async run({ options: o, positionals: [rawUrl] }, io) {
    const url = checkHttpUrl(rawUrl, '<url>', 'certify');
    const body = { url, appId: o.app, timeoutMs: o['timeout-ms'] };
    // Each check waits at most the timeout a few times over; the whole run stays within a few minutes.
    const answer = await callControl(io, o['base-url'], {
      method: 'POST',
      path: '/certify',
      body,
      timeoutMs: 300_000,
    });
    const report = answer as unknown as CertifyReport;
    io.out(
      o.json ? `${JSON.stringify(report, null, 2)}\n` : formatCertifyReport(report, painter(io, 'stdout')),
    );
    return report.totals.fail > 0 ? 1 : 0;
  },
});
