import type { output } from 'zod/v4/core';
import { hasLoneSurrogate, isHttpUrl } from '../limits.js';
import { checked, isString } from './build.js';

/**
 * `pending`: not final yet (a provider deposit waiting for the user or the provider); `completed`:
 * final, the money moved; `failed`: final, the money did not move and `failure_reason` says why.
 */
export const TRANSACTION_STATUSES = ['pending', 'completed', 'failed'] as const;

/** The three documented values of `transaction_status`: `pending`, `completed` and `failed`. */
export const TransactionStatus = checked(
  (value): value is (typeof TRANSACTION_STATUSES)[number] =>
    TRANSACTION_STATUSES.includes(value as (typeof TRANSACTION_STATUSES)[number]),
  `must be one of ${TRANSACTION_STATUSES.map((status) => JSON.stringify(status)).join(', ')}`,
);
/** `'pending' | 'completed' | 'failed'`. */
export type TransactionStatus = output<typeof TransactionStatus>;

/** Why `value` is not a usable identifier string, or `undefined` when it is one. */
function identifierProblem(value: unknown): string | undefined {
  if (!isString(value)) return 'must be a string';
  if (value.trim() === '') return 'must not be empty';
  if (hasLoneSurrogate(value)) return 'must not contain a lone UTF-16 surrogate';
  return undefined;
}

/**
 * A string that is not empty, not only whitespace, and well-formed UTF-16. `what` says in each
 * message what the string is.
 */
export function nonBlankString(what: string) {
  return checked(
    (value): value is string => identifierProblem(value) === undefined,
    (value) => `${identifierProblem(value)} (${what})`,
  );
}

/** Amounts: a finite number greater than zero. */
export const Amount = checked(
  (value): value is number => Number.isFinite(value) && (value as number) > 0,
  (value) => (Number.isFinite(value) ? 'must be greater than zero' : 'must be a finite number'),
);

/** A currency code: letters and digits only, 1 to 16 characters (e.g. `KES`). */
export const CurrencyCode = checked(
  (value): value is string => isString(value) && /^[A-Za-z0-9]{1,16}$/.test(value),
  (value) =>
    isString(value)
      ? 'must be a currency code of letters or digits such as "KES"'
      : 'must be a string currency code such as "KES"',
);

/** An absolute http(s) URL. */
export const HttpUrl = checked(isHttpUrl, (value) =>
  isString(value) ? 'must be an absolute http(s) URL' : 'must be a string URL',
);

/**
 * zod's e-mail pattern (`regexes.email` of `zod/v4/core`, the one `z.email()` checks with), copied:
 * importing it would bring all of zod's patterns into the bundle. A test keeps the two equal.
 */
export const EMAIL_PATTERN =
  // biome-ignore lint/complexity/noUselessEscapeInRegex: zod's pattern, character for character.
  /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;

/** An e-mail address. */
export const EmailAddress = checked(
  (value): value is string => isString(value) && EMAIL_PATTERN.test(value),
  'must be a valid e-mail address',
);
