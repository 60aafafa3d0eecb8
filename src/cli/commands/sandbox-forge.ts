import { DELIVERY_MODES, FORGERY_KINDS, type ForgeryKind, SANDBOX_LIMITS } from '../../testing/index.js';
import { UsageError } from '../errors.js';
import { defineCommand } from './command.js';
import { checkHttpUrl } from './sandbox-arguments.js';
import { CONTROL_ENVIRONMENT, common, control } from './sandbox-control-client.js';

/** `sandbox forge`: sends a forged, malformed, oversized or unknown webhook from a running sandbox. */
export const forge = defineCommand({
  name: 'sandbox forge',
  summary: 'send a forged, malformed, oversized or unknown webhook',
  description: `Sends what an attacker or a broken network would to the merchant's webhook endpoint:
unknown-transaction, changed-amount, changed-status, changed-reference and changed-currency
(a real deposit's event with one field changed), malformed-json, oversized, unknown-event,
and made-up-token (user_authorized with a token the sandbox never issued). Made from the
merchant's latest deposit unless --transaction names one; "sandbox webhooks" shows the answers.`,
  options: {
    transaction: { type: 'string', value: 'ID', help: 'the deposit to forge from (default: the latest)' },
    url: { type: 'string', value: 'URL', help: "where to post it (default: the merchant's webhook URL)" },
    app: { type: 'string', value: 'APP_ID', default: 'app_demo_shop', help: 'the merchant' },
    bytes: {
      type: 'integer',
      value: 'N',
      min: SANDBOX_LIMITS.faultBytes.min,
      max: SANDBOX_LIMITS.faultBytes.max,
      default: 1_048_576,
      help: 'body size of an oversized forgery',
    },
    delivery: {
      type: 'choice',
      value: 'MODE',
      choices: [...DELIVERY_MODES],
      default: 'deliver',
      help: 'how it is delivered',
    },
    ...common,
  },
  positionals: { name: 'forgery kind', usage: `<${FORGERY_KINDS.join('|')}>`, min: 1, max: 1 },
  environment: CONTROL_ENVIRONMENT,
  run: ({ options: o, positionals: [kind = ''] }, io) => {
    if (!FORGERY_KINDS.includes(kind as ForgeryKind)) {
      throw new UsageError(`unknown forgery "${kind}": one of ${FORGERY_KINDS.join(', ')}`, 'sandbox forge');
    }
    const url = checkHttpUrl(o.url, '--url', 'sandbox forge');
    const body = {
      kind: kind as ForgeryKind,
      transactionId: o.transaction,
      url,
      appId: o.app,
      bytes: o.bytes,
      delivery: o.delivery,
    };
    return control(io, o['base-url'], { method: 'POST', path: '/webhooks/forge', body }, (a) => {
      const d = a.delivery as { id: string; url: string; forgery: string };
      return `forged ${d.forgery} sent as ${d.id} → ${d.url}`;
    });
  },
});
