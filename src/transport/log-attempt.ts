import type { WalletLogger } from '../logger.js';
import type { AttemptOutcome } from './attempt.js';
import { requestIdOf } from './response.js';

/** Logs one attempt at `debug`: how it ended, its status, duration, number and request id. */
export function logAttempt(
  logger: WalletLogger,
  call: { readonly method: string; readonly path: string; readonly endpoint: string },
  attempt: number,
  secrets: readonly string[],
  outcome: AttemptOutcome,
  started: number,
): void {
  // An unreadable answer still has a status and headers worth logging.
  const answered = outcome.kind === 'response' || outcome.kind === 'unreadable';
  logger.debug?.(`${call.method} ${call.path} ${answered ? outcome.status : outcome.kind}`, {
    endpoint: call.endpoint,
    attempt,
    status: answered ? outcome.status : undefined,
    durationMs: Math.round(performance.now() - started),
    requestId: answered ? requestIdOf(outcome.headers, secrets) : undefined,
  });
}
