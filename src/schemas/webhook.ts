import type * as core from 'zod/v4/core';
import { MAX_EMAIL_LENGTH, MAX_USER_TOKEN_LENGTH } from '../limits.js';
import { checked, isString, looseObject, optional } from './build.js';
import type { TransactionStatus } from './fields.js';

// Built like every schema of the SDK (see build.ts), and kept small for the webhooks entry's 8 KB
// min+gz budget. Nothing is imported from fields.ts as a value: any value import keeps all of its
// schemas in the bundle. `satisfies` and test/webhooks/schemas.test-d.ts keep the status list
// equal to fields.ts's.
const statuses = ['pending', 'completed', 'failed'] as const satisfies readonly TransactionStatus[];

function optionalOf<T>(test: (value: unknown) => value is T, error: string) {
  return optional(checked(test, error));
}

const optionalString = optionalOf(isString, 'must be a string');
const nonBlank = checked(
  (value): value is string => isString(value) && value.trim() !== '',
  'must be a non-blank string',
);

/**
 * Body of the `user_authorized` webhook, as sent by the service. Fields the SDK does not know are kept.
 *
 * `user_email` is checked loosely (something@something, no spaces): refusing a real user's
 * address over a strict pattern would lose their authorization for good.
 */
export const UserAuthorizedWebhook = looseObject({
  /** Always `"user_authorized"`. */
  event: checked(
    (value): value is 'user_authorized' => value === 'user_authorized',
    'must be "user_authorized"',
  ),
  /** The e-mail address of the user who approved your application. */
  user_email: checked(
    (value): value is string =>
      isString(value) && value.length <= MAX_EMAIL_LENGTH && /^[^\s@]+@[^\s@]+$/.test(value),
    `must be an e-mail address of at most ${MAX_EMAIL_LENGTH} characters`,
  ),
  /** The user's bearer token: a secret, at most `MAX_USER_TOKEN_LENGTH` (4,096) characters. */
  token: checked(
    (value): value is string =>
      isString(value) && value.trim() !== '' && value.length <= MAX_USER_TOKEN_LENGTH,
    `must be a non-blank string of at most ${MAX_USER_TOKEN_LENGTH} characters`,
  ),
});
/** Body of the `user_authorized` webhook. */
export type UserAuthorizedWebhook = core.output<typeof UserAuthorizedWebhook>;

/**
 * Body of a transaction-result webhook. The spec does not show it; the SDK expects the
 * fields of the status response, with `event` either absent or `"transaction"`, and
 * `amount` as a number (as in deposit results) or a string (as in the status result).
 * Fields the SDK does not know are kept.
 */
export const TransactionWebhook = looseObject({
  /** `"transaction"`, or absent. */
  event: optionalOf(
    (value): value is 'transaction' => value === 'transaction',
    'must be "transaction" or absent',
  ),
  /** The id the service gave the transaction when it was created. */
  transaction_id: nonBlank,
  /** The status the transaction reached (a claim until read back from the status endpoint). */
  transaction_status: checked(
    (value): value is TransactionStatus => statuses.includes(value as TransactionStatus),
    'must be "pending", "completed" or "failed"',
  ),
  /** Your own reference id of the payment. */
  reference_id: optionalString,
  /** The amount: a number (as in deposit results) or a string (as in status results). */
  amount: optionalOf(
    (value): value is number | string => typeof value === 'string' || Number.isFinite(value),
    'must be a number or a string',
  ),
  /** ISO 4217 currency code, e.g. `KES`. */
  currency: optionalString,
  /** The reason when `transaction_status` is `failed`; `null` otherwise. */
  failure_reason: optionalOf(
    (value): value is string | null => value === null || typeof value === 'string',
    'must be a string or null',
  ),
  /** Completion time as a `YYYYMMDDHHMMSS` integer; see `parseDateCompleted`. */
  date_completed: optionalOf(
    (value): value is number => Number.isSafeInteger(value),
    'must be an integer (YYYYMMDDHHMMSS)',
  ),
});
/** Body of a transaction-result webhook. */
export type TransactionWebhook = core.output<typeof TransactionWebhook>;
