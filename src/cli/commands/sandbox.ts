import { MAX_TIMER_MS } from '../../limits.js';
import {
  createSandbox,
  defaultSandboxSeed,
  ERROR_BODY_SHAPES,
  type ErrorBodyShape,
  startSandboxServer,
} from '../../testing/index.js';
import { CliError } from '../errors.js';
import { defineCommand } from './command.js';
import { formatSandboxBanner } from './sandbox-banner.js';

/** `merchant-wallet sandbox`: a sandbox server for manual testing, until interrupted. */
export const sandboxCommand = defineCommand({
  name: 'sandbox',
  summary: 'run a local sandbox of the service with fake credentials',
  description: `Serves an in-memory Merchant Wallet service with the default seed over HTTP,
prints its addresses and the seed's fake credentials, and runs until Ctrl-C
(SIGINT) or SIGTERM. State is lost when it stops.`,
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
    // Without a delay nothing could ever settle a pending deposit, as the sandbox has no HTTP control for it.
    'auto-settle-ms': {
      type: 'integer',
      value: 'N',
      min: 0,
      max: MAX_TIMER_MS,
      default: 2_000,
      help: 'settle pending deposits N ms after they start',
    },
  },
  positionals: { name: 'arguments', min: 0, max: 0 },
  async run({ options }, io) {
    const { port, host, 'error-shape': errorShape, 'auto-settle-ms': autoSettleMs } = options;
    const seed = defaultSandboxSeed();
    const sandbox = createSandbox(seed, { errorShape, autoSettleMs });
    const server = await startSandboxServer({ sandbox, port, host }).catch((error: unknown) => {
      sandbox.close();
      throw listenFailure(error, host, port);
    });
    const shutdown = io.waitForShutdown();
    io.out(formatSandboxBanner({ urls: server, seed, errorShape, autoSettleMs }));
    const signal = await shutdown;
    sandbox.close();
    await server.close();
    io.out(`${signal}: sandbox stopped\n`);
    return 0;
  },
});

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
