import type { output } from 'zod/v4/core';
import { array, checked, isString, looseObject, optional } from './build.js';
import { TransactionStatus } from './fields.js';

// The service's answers are checked for their types only, with zod's own messages ("must be of type
// string"), so a changed answer is reported as it always was.
const text = checked(isString, 'must be of type string');
const finiteNumber = checked(
  Number.isFinite as (value: unknown) => value is number,
  'must be of type number',
);
/** `YYYYMMDDHHMMSS` integers: a safe integer, with the messages of zod's `int()`. */
const integer = checked(Number.isSafeInteger as (value: unknown) => value is number, (value) => {
  if (!Number.isFinite(value)) return 'must be of type number';
  if (!Number.isInteger(value)) return 'must be of type int';
  return (value as number) > 0 ? 'is invalid (too_big)' : 'is invalid (too_small)';
});
const textOrNull = checked(
  (value): value is string | null => value === null || isString(value),
  'must be of type string',
);

/** Result of a deposit (C2B). Fields the SDK does not know are kept. */
export const DepositResult = looseObject({
  /** The service's id of the transaction: the key for `getTransaction` and webhooks. */
  transaction_id: text,
  /** Your id from the request. */
  reference_id: text,
  /** `completed` when the wallet covered it; `pending` while a provider deposit runs. */
  transaction_status: TransactionStatus,
  /** The amount, as a number on this endpoint. */
  amount: finiteNumber,
  /** The currency code. */
  currency: text,
});
/** Result of a deposit (C2B). */
export type DepositResult = output<typeof DepositResult>;

/** Result of a withdrawal (B2C). Fields the SDK does not know are kept. */
export const WithdrawResult = looseObject({
  /** The service's id of the transaction: the key for `getTransaction`. */
  transaction_id: text,
  /** Present when the request carried one (the SDK always sends one). */
  reference_id: optional(text),
  /** Normally `completed`: withdrawals complete within the request. */
  transaction_status: TransactionStatus,
  /** The amount, as a number on this endpoint. */
  amount: finiteNumber,
  /** The currency code. */
  currency: text,
  /** Completion time as a `YYYYMMDDHHMMSS` integer; see `parseDateCompleted`. */
  date_completed: optional(integer),
});
/** Result of a withdrawal (B2C). */
export type WithdrawResult = output<typeof WithdrawResult>;

/** Result of a status lookup. `amount` is a string on this endpoint, as on the wire. */
export const TransactionResult = looseObject({
  /** The id that was looked up. */
  transaction_id: text,
  /** Your id, when the transaction was created with one. */
  reference_id: optional(text),
  /** `pending` until the transaction is final; `completed` and `failed` are final. */
  transaction_status: TransactionStatus,
  /** The amount, as a decimal string on this endpoint (e.g. `"250.00"`). */
  amount: text,
  /** The currency code. */
  currency: text,
  /** The reason when `transaction_status` is `failed`; `null` otherwise. */
  failure_reason: optional(textOrNull),
});
/** Result of a status lookup. */
export type TransactionResult = output<typeof TransactionResult>;

/** One mobile payment provider a user has linked. */
export const MobilePaymentProvider = looseObject({
  /** The value to pass as `payment_provider`. */
  provider_name: text,
  /** The user's phone number at this provider. */
  phone_number: text,
});
/** One mobile payment provider a user has linked. */
export type MobilePaymentProvider = output<typeof MobilePaymentProvider>;

/** The payment providers a user has and their defaults. */
export const ProviderList = looseObject({
  /** The user's default provider for deposits. */
  default_deposit_provider: text,
  /** The user's default provider for withdrawals. */
  default_withdraw_provider: text,
  /** The providers available to this user; only these can be named as `payment_provider`. */
  payment_providers: looseObject({
    /** Mobile-money providers, each with the user's phone number there. */
    mobile_payment_providers: array(MobilePaymentProvider),
  }),
});
/** The payment providers a user has and their defaults. */
export type ProviderList = output<typeof ProviderList>;
