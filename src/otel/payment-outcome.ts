import type { WalletPaymentTrace } from '../diagnostics/payment-trace.js';
import { WalletApiError, WalletJournalError } from '../errors.js';
import { outcomeOf } from '../journal/outcome.js';

/**
 * How a payment call ended, as the journal records it: `applied` (the service accepted the payment,
 * by this call or an earlier send of its reference), `refused` (not applied: refused, or never sent)
 * or `unknown` (it may have been applied: `WalletOutcomeUnknownError`, or a journal failure that may
 * send it later). The journal's own rule (`outcomeOf`), so the span never disagrees with the journal.
 */
export type PaymentOutcome = 'applied' | 'refused' | 'unknown';

/** The outcome of a finished payment call. */
export function paymentOutcomeOf(payment: WalletPaymentTrace): PaymentOutcome {
  if (!('error' in payment)) return 'applied';
  const { error } = payment;
  if (error instanceof WalletJournalError) return error.mayBeSentLater ? 'unknown' : 'refused';
  const { state } = outcomeOf(error, payment.resend);
  return state === 'refused' ? 'refused' : state === 'accepted' ? 'applied' : 'unknown';
}

/** `error.type` of a failed call: the API's error code (`insufficient_balance`), else the error's class name. */
export function paymentErrorTypeOf(error: unknown): string {
  if (error instanceof WalletApiError) return error.code;
  return error instanceof Error ? error.name : typeof error;
}
