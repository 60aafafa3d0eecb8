/**
 * Shared bounds and checks, one copy each, so every options type and entry agrees on them.
 * Imports nothing: it sits at the bottom of the dependency order.
 */

/** The longest delay `setTimeout` honours (2^31 - 1 ms); longer ones fire at once. */
export const MAX_TIMER_MS = 2_147_483_647;

/** Whether `value` is an `AbortSignal` (options take only real signals, never look-alikes). */
export function isAbortSignal(value: unknown): value is AbortSignal {
  return value instanceof AbortSignal;
}

/** Whether `value` is an absolute URL string with the http or https scheme. */
export function isHttpUrl(value: unknown): value is string {
  return typeof value === 'string' && URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);
}

const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Whether `value` holds a lone UTF-16 surrogate: it has no UTF-8 form, so such an id could neither
 * travel in a path nor be matched by the service.
 */
export function hasLoneSurrogate(value: string): boolean {
  return LONE_SURROGATE.test(value);
}

/** The most retries `maxRetries` allows, client-wide or per call. */
export const MAX_RETRIES = 10;

/** Whether `value` is a valid `maxRetries`: an integer from 0 to {@link MAX_RETRIES}. */
export function isRetryCount(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= MAX_RETRIES;
}

/**
 * Whether two amounts are the same number: the status endpoint and some webhooks send amounts
 * as strings (`"10.50"`), deposits and withdrawals as numbers (`10.5`). A blank string is no amount.
 */
export function sameAmount(a: number | string, b: number | string): boolean {
  return String(a).trim() !== '' && String(b).trim() !== '' && Number(a) === Number(b);
}

/** Whether two currency codes name the same currency; codes are compared without regard to case. */
export function sameCurrency(a: string, b: string): boolean {
  return a.toUpperCase() === b.toUpperCase();
}
