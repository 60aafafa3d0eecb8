import { defaultBackoff } from '../transport/backoff.js';

/** The client's defaults for the two options the rule reads (see `WalletClientOptions`). */
const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_RETRIES = 2;

/**
 * The restart rule of a wallet: how long an intent may stay `sending` before `start()`'s recovery
 * and the sweeper take it over. It is the longest a payment call of this client can still be
 * running: every attempt to its timeout, the longest `Retry-After` honoured between attempts, and
 * the write of its outcome. Before that, the call that recorded it may be alive on another
 * instance, and a re-send could apply a payment whose caller is about to be told "refused" and
 * pay again; after it, nobody is sending it, so taking it over is safe. It follows from the
 * client's own options, so there is nothing to tune; an `unknown` intent is taken over at once.
 *
 * @example restartGraceMs({}) // 240000: 4 attempts' timeouts (3 sends and the outcome's write), 2 × 60 s Retry-After
 */
export function restartGraceMs(options: {
  timeoutMs?: number | undefined;
  maxRetries?: number | undefined;
}): number {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const retries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  return (retries + 2) * timeoutMs + retries * defaultBackoff.maxRetryAfterMs;
}
