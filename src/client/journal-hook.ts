import { WalletError, WalletJournalError, WalletOutcomeUnknownError } from '../errors.js';
import { bounded, type JournalBounds } from '../journal/bounded.js';
import { outcomeOf } from '../journal/outcome.js';
import {
  type NewPaymentIntent,
  OPEN_STATES,
  type PaymentIntentUpdate,
  type PaymentJournal,
} from '../journal/types.js';
import type { WalletLogger } from '../logger.js';
import type { TransactionResult } from '../schemas/responses.js';

/** The journal, where to report its failures, and whose payments this client records. */
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

/** One deposit or withdrawal to send between its journal writes. */
export interface JournaledPayment<T> {
  readonly intent: NewPaymentIntent & { readonly merchant: string };
  readonly bounds: JournalBounds;
  readonly send: () => Promise<T>;
  /** A re-send of a payment whose outcome is unknown (see {@link outcomeOf}). */
  readonly resend: boolean;
}

/**
 * How long closing a failed record may take. Short: the caller is waiting, and a close that does
 * not answer only means the error says an intent may remain.
 */
const CLOSE_BOUND_MS = 2_000;
const NEVER_SENT = 'not sent: recording the intent failed';

async function writeOutcome(
  hook: JournalHook,
  payment: JournaledPayment<unknown>,
  update: PaymentIntentUpdate,
) {
  const { referenceId, merchant } = payment.intent;
  try {
    await bounded(hook.journal.update(referenceId, update), payment.bounds);
    return undefined;
  } catch (cause) {
    const failure = new WalletJournalError({ operation: 'update', referenceId, cause });
    failure.merchant = merchant;
    hook.logger?.error?.(failure.message, { referenceId, state: update.state });
    return failure;
  }
}

/**
 * After a failed record, closes the intent as never sent if it is there, still `sending`: a reply
 * lost after the commit leaves one behind that `recover()` would otherwise send. Answers whether
 * no open intent remains. An intent already open before (`unknown`, from an earlier call) stays.
 */
async function closeNeverSent(hook: JournalHook, payment: JournaledPayment<unknown>, settled: boolean) {
  try {
    const after = await bounded(
      hook.journal.update(payment.intent.referenceId, {
        state: 'closed',
        reason: NEVER_SENT,
        ifState: ['sending'],
      }),
      { endpoint: payment.bounds.endpoint, signal: undefined, timeoutMs: CLOSE_BOUND_MS },
    );
    // No intent now proves nothing while the record may still be on its way to the store.
    if (after === undefined) return settled;
    return !(OPEN_STATES as readonly string[]).includes(after.state);
  } catch {
    return false;
  }
}

/** Records the intent within the call's bounds; on failure, closes it and throws what remains. */
async function recordIntent(hook: JournalHook, payment: JournaledPayment<unknown>): Promise<void> {
  let settled = false;
  const write = hook.journal.record(payment.intent).finally(() => {
    settled = true;
  });
  try {
    await bounded(write, payment.bounds);
  } catch (cause) {
    // A rejection from the store itself means its statement is over; a timeout or an abort does not.
    const closed = await closeNeverSent(hook, payment, settled);
    const failure = new WalletJournalError({
      operation: 'record',
      referenceId: payment.intent.referenceId,
      cause,
      mayBeSentLater: !closed,
    });
    failure.merchant = payment.intent.merchant;
    hook.logger?.error?.(failure.message, { referenceId: payment.intent.referenceId });
    throw failure;
  }
}

/** Marks an error with the merchant whose payment it is, so no other merchant's client re-sends it. */
function stamp(error: unknown, merchant: string): void {
  if (error instanceof WalletOutcomeUnknownError) error.merchant = merchant;
}

/**
 * Sends a deposit or withdrawal between two journal writes: the intent before (its failure stops the
 * payment, nothing sent) and the outcome after (its failure keeps the answer, logs, and sets
 * `journalError`). Both writes obey the call's `signal` and `timeoutMs`. Without a journal, only
 * marks the error with the merchant.
 */
export async function sendJournaled<T extends Journalable>(
  hook: JournalHook | undefined,
  payment: JournaledPayment<T>,
): Promise<Journaled<T>> {
  const merchant = payment.intent.merchant;
  if (hook === undefined) {
    try {
      return await payment.send();
    } catch (error) {
      stamp(error, merchant);
      throw error;
    }
  }
  await recordIntent(hook, payment);
  let result: T;
  try {
    result = await payment.send();
  } catch (error) {
    stamp(error, merchant);
    const failure = await writeOutcome(hook, payment, outcomeOf(error, payment.resend));
    if (failure !== undefined && error instanceof WalletError) error.journalError = failure;
    throw error;
  }
  const failure = await writeOutcome(hook, payment, {
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
