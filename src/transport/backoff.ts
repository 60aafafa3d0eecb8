/** The exponential curve alone; polling uses it without any `Retry-After` handling. */
export interface BackoffCurve {
  /** Delay ceiling of the first retry; doubles each retry. */
  readonly baseDelayMs: number;
  /** Largest delay computed from the backoff curve. */
  readonly maxDelayMs: number;
}

/** How long to wait between attempts. */
export interface BackoffPolicy extends BackoffCurve {
  /** Largest `Retry-After` the client will wait for; a longer one ends the retries. */
  readonly maxRetryAfterMs: number;
}

/** The defaults: base 500 ms, cap 8 s, `Retry-After` honoured up to 60 s. */
export const defaultBackoff: BackoffPolicy = { baseDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 };

/**
 * Exponential backoff with full jitter: a uniform delay between 0 and
 * `min(maxDelayMs, baseDelayMs * 2^retry)`, so clients that failed together do not retry together.
 */
export function backoffDelay(
  retry: number,
  policy: BackoffCurve,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return Math.floor(random() * ceiling);
}

/** The three HTTP date forms of RFC 9110: IMF-fixdate, RFC 850 and asctime. */
const HTTP_DATE =
  /^(?:[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT|[A-Z][a-z]+, \d{2}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2} GMT|[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4})$/;

/**
 * Reads a `Retry-After` header given in seconds or as an HTTP date.
 * @returns the delay in milliseconds, or `undefined` when the header is absent or unreadable.
 */
export function parseRetryAfter(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null) return undefined;
  const trimmed = header.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.ceil(Number(trimmed) * 1000);
  if (!HTTP_DATE.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
