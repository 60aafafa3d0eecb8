import { randomBytes } from 'node:crypto';
import {
  createSandbox,
  defaultSandboxSeed,
  ERROR_BODY_SHAPES,
  type ErrorBodyShape,
  SANDBOX_LIMITS,
  startSandboxServer,
} from '../../testing/index.js';
import { CliError, UsageError } from '../errors.js';
import { defineCommand } from './command.js';
import {
  checkHttpUrl,
  checkRedirectUrl,
  parseSchedule,
  WEBHOOK_ATTEMPTS_OPTION,
  WEBHOOK_SCHEDULE_OPTION,
} from './sandbox-arguments.js';
import { formatSandboxBanner } from './sandbox-banner.js';
import { formatSandboxEvent } from './sandbox-events.js';

const DEFAULT_AUTO_SETTLE_MS = 60_000;
const WEBHOOK_URL_HELP = 'where user_authorized and deposit results go';

/** `merchant-wallet sandbox`: a sandbox server for manual testing, until interrupted. */
export const sandboxCommand = defineCommand({
  name: 'sandbox',
  summary: 'run a local sandbox of the service with fake credentials',
  description: `Serves an in-memory Merchant Wallet service with the default seed over HTTP,
prints its addresses, the seed's fake credentials and the control key, and runs
until Ctrl-C (SIGINT) or SIGTERM, printing every webhook attempt and login
approval. "merchant-wallet sandbox <action>" drives it from another shell
(settle, advance, webhook-url, ...). State is lost when it stops.`,
  options: {
    // A fixed default port, so `WALLET_BASE_URL` can stay the same from one run to the next.
    port: {
      type: 'integer',
      value: 'N',
      min: 0,
      max: 65_535,
      default: 4010,
      help: 'port to listen on, 0 for any free port',
    },
    host: { type: 'string', value: 'HOST', default: '127.0.0.1', help: 'interface to listen on' },
    'error-shape': {
      type: 'choice',
      value: 'SHAPE',
      choices: Object.keys(ERROR_BODY_SHAPES) as ErrorBodyShape[],
      default: 'code',
      help: 'error body shape',
    },
    'webhook-url': { type: 'string', value: 'URL', help: WEBHOOK_URL_HELP },
    'deposit-webhook-url': {
      type: 'string',
      value: 'URL',
      help: 'where deposit results go, when not to --webhook-url',
    },
    'redirect-url': {
      type: 'string',
      value: 'URL',
      help: 'where the printed login page sends the user after Approve or Deny;\ndefault: a page of the sandbox itself',
    },
    // A default delay long enough to type `sandbox settle` by hand, yet a deposit left alone still
    // ends as it would with a real provider.
    'auto-settle-ms': {
      type: 'string',
      value: 'N|off',
      default: String(DEFAULT_AUTO_SETTLE_MS),
      help: 'settle pending deposits N ms (sandbox clock) after they start;\noff: only by "sandbox settle"',
    },
    'webhook-attempts': WEBHOOK_ATTEMPTS_OPTION,
    'webhook-schedule': WEBHOOK_SCHEDULE_OPTION,
  },
  positionals: { name: 'arguments', min: 0, max: 0 },
  environment: {
    WALLET_SANDBOX_KEY: 'control key to use (default: a new random one, printed)',
  },
  async run({ options }, io) {
    const { port, host, 'error-shape': errorShape } = options;
    const autoSettleMs = parseAutoSettle(options['auto-settle-ms']);
    const webhookUrl = checkHttpUrl(options['webhook-url'], '--webhook-url', 'sandbox');
    const depositWebhookUrl =
      checkHttpUrl(options['deposit-webhook-url'], '--deposit-webhook-url', 'sandbox') ?? webhookUrl;
    const redirectUrl = checkRedirectUrl(options['redirect-url'], '--redirect-url', 'sandbox');
    const schedule = parseSchedule(options['webhook-schedule'], '--webhook-schedule', 'sandbox');
    const attempts = options['webhook-attempts'];
    const seed = defaultSandboxSeed();
    const demo = seed.merchants[0];
    if (demo) Object.assign(demo, { authWebhookUrl: webhookUrl, depositWebhookUrl });
    const controlKey = io.env.WALLET_SANDBOX_KEY || `sbx_${randomBytes(18).toString('base64url')}`;
    if (controlKey.length < 16) throw new CliError('WALLET_SANDBOX_KEY: must be at least 16 characters');
    const onEvent = (event: Parameters<typeof formatSandboxEvent>[0]) => io.out(formatSandboxEvent(event));
    const sandbox = createSandbox(seed, {
      errorShape,
      ...(autoSettleMs === undefined ? {} : { autoSettleMs }),
      controlKey,
      onEvent,
      webhooks: {
        ...(schedule === undefined ? {} : { schedule }),
        ...(attempts === undefined ? {} : { attempts }),
      },
    });
    const server = await startSandboxServer({ sandbox, port, host }).catch((error: unknown) => {
      sandbox.close();
      throw listenFailure(error, host, port);
    });
    const shutdown = io.waitForShutdown();
    io.out(
      formatSandboxBanner({ urls: server, host, seed, errorShape, autoSettleMs, controlKey, redirectUrl }),
    );
    const signal = await shutdown;
    sandbox.close();
    await server.close();
    io.out(`${signal}: sandbox stopped\n`);
    return 0;
  },
});

/** `off` turns timed settlement off; otherwise a whole number of milliseconds, within the sandbox's bound. */
function parseAutoSettle(value: string): number | undefined {
  if (value === 'off') return undefined;
  const ms = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  const { max } = SANDBOX_LIMITS.autoSettleMs;
  if (!(ms <= max)) {
    throw new UsageError(`--auto-settle-ms must be "off" or a whole number from 0 to ${max}`, 'sandbox');
  }
  return ms;
}

function listenFailure(error: unknown, host: string, port: number): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') {
    return new CliError(
      `port ${port} on ${host} is in use: pick another with --port, or --port 0 for any free one`,
    );
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EACCES') {
    return new CliError(`cannot listen on ${host}:${port} (${code})`);
  }
  return error;
}
