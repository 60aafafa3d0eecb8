/**
 * The one rule that ties what a caller is told to what the journal records, so that the two never
 * disagree and `recover()` only ever sends what the caller was told might still be sent
 * (docs/reliability.md):
 *
 * - A first send that ends in anything but `WalletOutcomeUnknownError` was not applied (the send
 *   loop throws a plain error only then): the intent is `refused`, with the error's code as reason.
 * - A re-send (`resolveOutcome`, `recover()`) of a payment whose outcome was unknown learns
 *   something only from an answer about the payment itself: `reference_already_used` (accepted) or a
 *   business refusal. Anything else, credentials and internal errors included, leaves it `unknown`,
 *   because an earlier attempt may have been applied.
 */
import { codesOfKind } from '../error-codes.js';
import {
  WalletAbortError,
  WalletApiError,
  WalletConnectionError,
  WalletError,
  WalletOutcomeUnknownError,
} from '../errors.js';
import type { PaymentIntentUpdate } from './types.js';

/**
 * Refusals that say nothing about the reference id: the service checks credentials before it looks
 * at the reference, and an internal error is no answer. They settle a first send (nothing earlier
 * exists) but never a re-send.
 */
const NOT_ABOUT_THE_PAYMENT = codesOfKind((kinds) => !kinds.aboutPayment);

/** A `reference_already_used` answer, or an unknown outcome caused by one: accepted before. */
export function isAlreadyApplied(error: unknown): boolean {
  const answer = error instanceof WalletOutcomeUnknownError ? error.cause : error;
  return answer instanceof WalletApiError && answer.code === 'reference_already_used';
}

/**
 * A refusal that speaks for the payment itself, not only for this send: a documented business code.
 * A re-send refused otherwise (credentials, a gateway's 429 or 404 without a code) says nothing of
 * the original.
 */
export function isBusinessRefusal(error: unknown): error is WalletApiError {
  return (
    error instanceof WalletApiError && !isAlreadyApplied(error) && !NOT_ABOUT_THE_PAYMENT.has(error.code)
  );
}

/** Why a first send that never reached the service was not applied. */
function notSentReason(error: WalletError): string | undefined {
  if (error instanceof WalletAbortError) return 'not sent: aborted before the request was sent';
  if (error instanceof WalletConnectionError && !(error instanceof WalletOutcomeUnknownError))
    return 'not sent: the connection failed before the request arrived';
  return undefined;
}

/**
 * The journal entry for a deposit or withdrawal that failed with `error`; `resend` marks a re-send
 * of a payment whose outcome is unknown.
 */
export function outcomeOf(error: unknown, resend = false): PaymentIntentUpdate {
  if (isAlreadyApplied(error)) return { state: 'accepted', reason: 'reference_already_used' };
  if (resend) {
    if (isBusinessRefusal(error)) return { state: 'refused', reason: error.code };
    const said =
      error instanceof WalletApiError ? error.code : error instanceof Error ? error.name : 'failure';
    return { state: 'unknown', reason: `a re-send got no answer about the payment (${said})` };
  }
  if (error instanceof WalletApiError) return { state: 'refused', reason: error.code };
  const notSent = error instanceof WalletError ? notSentReason(error) : undefined;
  if (notSent !== undefined) return { state: 'refused', reason: notSent };
  if (error instanceof WalletOutcomeUnknownError) {
    return { state: 'unknown', reason: 'the outcome is unknown: the request may have been applied' };
  }
  return { state: 'unknown', reason: error instanceof Error ? error.name : 'unknown failure' };
}
