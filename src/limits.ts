/**
 * Shared bounds and checks, one copy each, so every options type and entry agrees on them.
 * Imports nothing: it sits at the bottom of the dependency order.
 */

/** Credentials: visible ASCII, no spaces, so they fit a header and cannot split it. */
export const CREDENTIAL = /^[\x21-\x7e]+$/;

/** The longest delay `setTimeout` honours (2^31 - 1 ms); longer ones fire at once. */
export const MAX_TIMER_MS = 2_147_483_647;

/** What a check says of a duration that is not a positive number of milliseconds. */
export const POSITIVE_MS = 'must be a positive number of milliseconds';

/** Whether `value` is a duration above 0 ms and at most `max` ms (no bound unless given). */
export function isPositiveMs(value: unknown, max = Number.POSITIVE_INFINITY): value is number {
  return typeof value === 'number' && value > 0 && value <= max;
}

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
 * An amount as JSON or the status endpoint writes it: a sign, digits, an optional fraction and, as
 * `String(number)` writes very large or small numbers, an optional exponent.
 */
const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d{1,3}))?$/i;

/**
 * The exact decimal value of an amount as canonical text (`150`, `10.5`, `0.30000000000000004`),
 * or `undefined` when `value` is not a finite number or decimal text. A number is read as the
 * shortest decimal that round-trips it (what `JSON.parse` read off the wire), never through binary
 * arithmetic, so `"150.00"` and `150` meet while two values a float rounding apart do not.
 * A three-digit exponent bound keeps a hostile `"1e999999999"` from padding a string for minutes.
 */
export function decimalAmount(value: unknown): string | undefined {
  if (typeof value === 'number' ? !Number.isFinite(value) : typeof value !== 'string') return undefined;
  const match = DECIMAL.exec(String(value));
  if (match === null) return undefined;
  const [, sign, whole = '', fraction = '', exponent = '0'] = match;
  const digits = whole + fraction;
  // Where the decimal point falls in `digits` once the exponent is applied.
  const point = whole.length + Number(exponent);
  const padded = '0'.repeat(Math.max(0, -point)) + digits + '0'.repeat(Math.max(0, point - digits.length));
  const at = Math.max(0, point);
  const integer = padded.slice(0, at).replace(/^0+/, '') || '0';
  const decimals = padded.slice(at).replace(/0+$/, '');
  const text = decimals === '' ? integer : `${integer}.${decimals}`;
  return text === '0' ? text : sign + text;
}

/**
 * Whether two amounts are the same decimal value; `false` when either is not an amount. The SDK's
 * own checks (an answer about another amount, a webhook claiming one) use this form: a value that
 * cannot be read is a mismatch there, not a reason to throw.
 */
export function amountsMatch(a: unknown, b: unknown): boolean {
  const left = decimalAmount(a);
  return left !== undefined && left === decimalAmount(b);
}

/** Whether two currency codes name the same currency; codes are compared without regard to case. */
export function sameCurrency(a: string, b: string): boolean {
  return a.toUpperCase() === b.toUpperCase();
}

/**
 * The longest user token the SDK takes, in characters. The spec shows no length; real bearer tokens
 * (opaque ids, JWTs) are well under it, and a bound keeps a forged `user_authorized` webhook from
 * storing megabytes or sending a header the service answers with a 400.
 */
export const MAX_USER_TOKEN_LENGTH = 4_096;

/** The longest e-mail address the SDK takes, in characters (the limit of an SMTP path, RFC 5321). */
export const MAX_EMAIL_LENGTH = 254;
