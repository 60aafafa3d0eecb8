import {
  WalletAbortError,
  WalletApiError,
  WalletConnectionError,
  WalletError,
  WalletJournalError,
  WalletOutcomeUnknownError,
} from '../errors.js';
import type { NewPaymentIntent, PaymentIntentUpdate, PaymentJournal } from '../journal/types.js';
import type { WalletLogger } from '../logger.js';
import type { TransactionResult } from '../schemas/responses.js';

/** The journal and where to report its failures. */
export interface JournalHook {
  readonly journal: PaymentJournal;
  readonly logger: WalletLogger | undefined;
}

/** An answer the journal can record: it names the transaction and its status. */
export interface Journalable {
  readonly transaction_id: string;
  readonly transaction_status: string;
}

/** What a deposit or withdrawal resolves with; `journalError` is set when writing its outcome failed. */
export type Journaled<T> = T & {
  /** Set when the payment went through but its outcome could not be written to the journal. */
  readonly journalError?: WalletJournalError;
};

/**
 * Refusals that say nothing about the reference id: the service checks credentials before it looks
 * at the reference, and an internal error is no answer. A re-send refused this way stays unknown.
 */
const NOT_ABOUT_THE_PAYMENT = new Set([
  'missing_api_key',
  'invalid_api_key',
  'authorization_token_not_found',
  'application_not_authorized',
  'internal_server_error',
]);

/** A `reference_already_used` answer, or an unknown outcome caused by one: applied before. */
export function isAlreadyApplied(error: unknown): boolean {
  const answer = error instanceof WalletOutcomeUnknownError ? error.cause : error;
  return answer instanceof WalletApiError && answer.code === 'reference_already_used';
}

/** A refusal of this send: it was not applied (a 4xx without a documented code included). */
export function isRefusal(error: unknown): error is WalletApiError {
  return (
    error instanceof WalletApiError && !isAlreadyApplied(error) && !NOT_ABOUT_THE_PAYMENT.has(error.code)
  );
}

/**
 * A refusal that speaks for the payment itself, not only for this send: a documented business code.
 * A re-send refused otherwise (a gateway's 429 or 404 without a code) says nothing of the original.
 */
export function isBusinessRefusal(error: unknown): error is WalletApiError {
  return isRefusal(error) && error.code !== 'unknown_error';
}

/**
 * The journal entry for a deposit or withdrawal that failed with `error`. For a `resend` of a payment
 * whose outcome is unknown, only an answer about the payment itself is definite: a re-send that
 * never arrived leaves the original as unknown as it was.
 */
export function outcomeOf(error: unknown, resend = false): PaymentIntentUpdate {
  if (isAlreadyApplied(error)) return { state: 'applied', reason: 'reference_already_used' };
  if (isRefusal(error) && (!resend || isBusinessRefusal(error)))
    return { state: 'refused', reason: error.code };
  // Connection failures and aborts are thrown only when the request provably never arrived.
  if (!resend && error instanceof WalletAbortError) {
    return { state: 'refused', reason: 'aborted before sending' };
  }
  if (!resend && error instanceof WalletConnectionError && !(error instanceof WalletOutcomeUnknownError)) {
    return { state: 'refused', reason: 'not sent: connection failed before the request arrived' };
  }
  return { state: 'unknown', reason: error instanceof Error ? error.name : 'unknown failure' };
}

async function writeOutcome(hook: JournalHook, referenceId: string, update: PaymentIntentUpdate) {
  try {
    await hook.journal.update(referenceId, update);
    return undefined;
  } catch (cause) {
    const failure = new WalletJournalError({ operation: 'update', referenceId, cause });
    hook.logger?.error?.(failure.message, { referenceId, state: update.state });
    return failure;
  }
}

/**
 * Sends a deposit or withdrawal between two journal writes: the intent before (its failure stops the
 * payment, nothing sent) and the outcome after (its failure keeps the answer, logs, and sets `journalError`).
 * `resend` marks a re-send of a payment whose outcome is unknown (see {@link outcomeOf}).
 */
export async function sendJournaled<T extends Journalable>(
  hook: JournalHook | undefined,
  intent: NewPaymentIntent,
  sendIt: () => Promise<T>,
  resend = false,
): Promise<Journaled<T>> {
  if (hook === undefined) return sendIt();
  try {
    await hook.journal.record(intent);
  } catch (cause) {
    throw new WalletJournalError({ operation: 'record', referenceId: intent.referenceId, cause });
  }
  let result: T;
  try {
    result = await sendIt();
  } catch (error) {
    const failure = await writeOutcome(hook, intent.referenceId, outcomeOf(error, resend));
    if (failure !== undefined && error instanceof WalletError) error.journalError = failure;
    throw error;
  }
  const failure = await writeOutcome(hook, intent.referenceId, {
    state: 'applied',
    transactionId: result.transaction_id,
    transactionStatus: result.transaction_status,
  });
  return failure === undefined ? result : { ...result, journalError: failure };
}

/**
 * Records a status read in the journal: the transaction exists, so its payment is applied. Found by
 * `reference_id` when the answer carries one (this fills in the id of a payment whose answer was
 * lost, e.g. when a webhook handler's `verifyWith` reads it back), else by transaction id. A failure
 * is logged, never thrown: a read moved no money.
 */
export async function noteStatus(hook: JournalHook | undefined, status: TransactionResult) {
  if (hook === undefined) return;
  const { reference_id, transaction_id: transactionId, transaction_status: transactionStatus } = status;
  try {
    if (reference_id === undefined)
      await hook.journal.updateByTransactionId(transactionId, { transactionStatus });
    else await hook.journal.update(reference_id, { state: 'applied', transactionId, transactionStatus });
  } catch (cause) {
    hook.logger?.warn?.('The payment journal could not record a transaction status', {
      transactionId,
      cause: cause instanceof Error ? cause.message : String(cause),
    });
  }
}
