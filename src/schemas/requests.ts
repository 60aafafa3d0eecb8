import type { output } from 'zod/v4/core';
import { checked, isString, optional, strictObject } from './build.js';
import { Amount, CurrencyCode, EmailAddress, HttpUrl, nonBlankString } from './fields.js';

/**
 * Body of a deposit (C2B): funds taken from a user's wallet, or through a
 * payment provider when the wallet balance does not cover the amount.
 * Unknown keys are rejected, so a misspelt field never goes unnoticed.
 */
export const DepositRequest = strictObject({
  /** Your identifier for this payment; the service keeps it unique. Reuse gives `reference_already_used`. */
  reference_id: nonBlankString('your unique id for this payment'),
  /** The amount to take: a finite number greater than zero. */
  amount: Amount,
  /** The currency code, e.g. `KES`. */
  currency: CurrencyCode,
  /** A provider from `listProviders` for this user; used only when the wallet balance is short. */
  payment_provider: optional(nonBlankString('a provider name from listProviders')),
  /** Free text shown with the transaction. */
  description: optional(checked(isString, 'must be a string')),
  /** Where the result is posted; defaults to the deposit webhook URL set in the merchant portal. */
  webhook_url: optional(HttpUrl),
});
/** Body of a deposit (C2B). */
export type DepositRequest = output<typeof DepositRequest>;

/**
 * Body of a withdrawal (B2C): funds sent from the merchant account to the
 * user's wallet, and on to a provider when one is named.
 */
export const WithdrawRequest = strictObject({
  /** The e-mail address of the user whose wallet receives the funds. */
  email: EmailAddress,
  /** The amount to send: a finite number greater than zero. */
  amount: Amount,
  /** The currency code, e.g. `KES`. */
  currency: CurrencyCode,
  /** Generated (`crypto.randomUUID()`) when absent, so retries can never pay twice. */
  reference_id: optional(nonBlankString('your unique id for this payment')),
  /** A provider from `listProviders`: the funds go on from the wallet to it. */
  payment_provider: optional(nonBlankString('a provider name from listProviders')),
  /** Free text shown with the transaction. */
  description: optional(checked(isString, 'must be a string')),
});
/** Body of a withdrawal (B2C). */
export type WithdrawRequest = output<typeof WithdrawRequest>;

/** A transaction id as returned by `deposit` or `withdraw`. */
export const TransactionId = nonBlankString('the transaction_id returned when the transaction was created');
