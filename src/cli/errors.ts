import { WalletError } from '../index.js';
import type { CliIo } from './io.js';
import { painter } from './style.js';

/**
 * The command line itself is wrong (unknown option, missing argument, bad number): exit
 * status 2 and a pointer to the help, as opposed to a failure of the work it asked for.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';

  /** @param command the command whose help to point at; the top-level help when absent. */
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super(message);
  }
}

/**
 * An expected failure that is not the SDK's: an unreadable file, a port in use. Printed as
 * `error: <message>` without a stack, exit status 1.
 */
export class CliError extends Error {
  override readonly name = 'CliError';
}

/**
 * SDK messages never contain the key; this is a second line of defence for messages from
 * elsewhere (Node, a future code path), since stderr often ends up in CI logs.
 */
function redact(text: string, io: CliIo): string {
  const key = io.env.WALLET_API_KEY;
  return key ? text.split(key).join('[redacted]') : text;
}

/**
 * Prints a failure on stderr and returns the exit status: 2 for a usage error, with a pointer
 * to the help; 1 for anything else. Expected failures (the SDK's, unreadable input, a busy
 * port) get one line and no stack; anything else is a bug and keeps its stack.
 */
export function reportError(error: unknown, io: CliIo): number {
  const label = painter(io, 'stderr')('red', 'error:');
  if (error instanceof UsageError) {
    const help =
      error.command === undefined ? 'merchant-wallet --help' : `merchant-wallet ${error.command} --help`;
    io.err(`${label} ${error.message}\nRun "${help}" for usage.\n`);
    return 2;
  }
  if (error instanceof WalletError || error instanceof CliError) {
    io.err(`${label} ${redact(error.message, io)}\n`);
    return 1;
  }
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  io.err(`${label} unexpected failure, please report it: ${redact(detail, io)}\n`);
  return 1;
}
