import { MAX_TIMER_MS } from '../../limits.js';
import {
  createSandbox,
  defaultSandboxSeed,
  ERROR_BODY_SHAPES,
  type ErrorBodyShape,
  startSandboxServer,
} from '../../testing/index.js';
import { parseCommandArgs, parseInteger } from '../args.js';
import { CliError, UsageError } from '../errors.js';
import type { Command } from './command.js';
import { formatSandboxBanner } from './sandbox-banner.js';

/** A fixed default port, so `WALLET_BASE_URL` can stay the same from one run to the next. */
const DEFAULT_PORT = 4010;
/** Without a delay nothing could ever settle a pending deposit, as the sandbox has no HTTP control for it. */
const DEFAULT_AUTO_SETTLE_MS = 2_000;
const SHAPES = Object.keys(ERROR_BODY_SHAPES) as ErrorBodyShape[];

const OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  'error-shape': { type: 'string' },
  'auto-settle-ms': { type: 'string' },
} as const;

const HELP = `Usage: merchant-wallet sandbox [--port N] [--host HOST] [--error-shape SHAPE] [--auto-settle-ms N]

Serves an in-memory Merchant Wallet service with the default seed over HTTP,
prints its addresses and the seed's fake credentials, and runs until Ctrl-C
(SIGINT) or SIGTERM. State is lost when it stops.

Options:
  --port N             port to listen on, 0 for any free port (default: ${DEFAULT_PORT})
  --host HOST          interface to listen on (default: 127.0.0.1)
  --error-shape SHAPE  error body shape: ${SHAPES.join(', ')} (default: code)
  --auto-settle-ms N   settle pending deposits N ms after they start (default: ${DEFAULT_AUTO_SETTLE_MS})
  -h, --help           show this help
`;

function readShape(value: string | undefined): ErrorBodyShape {
  if (value === undefined) return 'code';
  if ((SHAPES as string[]).includes(value)) return value as ErrorBodyShape;
  throw new UsageError(`option --error-shape must be one of ${SHAPES.join(', ')}`, 'sandbox');
}

/** `merchant-wallet sandbox`: a sandbox server for manual testing, until interrupted. */
export const sandboxCommand: Command = {
  name: 'sandbox',
  summary: 'run a local sandbox of the service with fake credentials',
  help: HELP,
  async run(args, io) {
    const parsed = parseCommandArgs(args, {
      command: 'sandbox',
      options: OPTIONS,
      positionals: { min: 0, max: 0, name: 'arguments' },
    });
    if (parsed.help) {
      io.out(HELP);
      return 0;
    }
    const { values } = parsed;
    const port =
      values.port === undefined ? DEFAULT_PORT : parseInteger('sandbox', 'port', values.port, 0, 65_535);
    const host = values.host ?? '127.0.0.1';
    const errorShape = readShape(values['error-shape']);
    const autoSettleMs =
      values['auto-settle-ms'] === undefined
        ? DEFAULT_AUTO_SETTLE_MS
        : parseInteger('sandbox', 'auto-settle-ms', values['auto-settle-ms'], 0, MAX_TIMER_MS);
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
};

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
