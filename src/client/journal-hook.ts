import {
  WalletConnectionError,
  WalletError,
  WalletJournalError,
  WalletOutcomeUnknownError,
} from '../errors.js';
import { bounded, type JournalBounds } from '../journal/bounded.js';
import { acceptedState } from '../journal/merge.js';
import { isAlreadyApplied, isBusinessRefusal, outcomeOf } from '../journal/outcome.js';
import {
  ACCEPTED_STATES,
  FINAL_STATUSES,
  type NewPaymentIntent,
  type PaymentIntent,
  type PaymentIntentUpdate,
  type PaymentJournal,
  type SettledBy,
} from '../journal/types.js';
import type { WalletLogger } from '../logger.js';
import type { TransactionResult } from '../schemas/responses.js';
import { type Settlement, settle } from '../settlement/settle.js';
import { stampMerchant } from './merchant-stamp.js';
import { keepSendingLease, SENDING_LEASE_MS } from './sending-lease.js';

/** The journal, where to report its failures, and how final payments are settled (`onSettled`). */
export interface JournalHook {
  readonly journal: PaymentJournal;
  readonly logger: WalletLogger | undefined;
  readonly settlement: Settlement | undefined;
}

/** Settles the payment when the hook settles and `status` is final (or `refused`); never throws. */
async function settleIfFinal(
  hook: JournalHook,
  referenceId: string,
  status: string,
  path: SettledBy,
): Promise<void> {
  if (hook.settlement !== undefined && (FINAL_STATUSES.has(status) || status === 'refused'))
    await settle(hook.settlement, referenceId, path);
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
  readonly intent: NewPaymentIntent & { readonly merchant: string; readonly recordedBy: string };
  readonly bounds: JournalBounds;
  readonly send: () => Promise<T>;
  /** A re-send of a payment whose outcome is unknown (see {@link outcomeOf}). */
  readonly resend: boolean;
  /** The path a final answer settles the payment by. @default 'answer' */
  readonly via?: SettledBy | undefined;
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
 * After a failed record, closes the intent as never sent if this call created it and it is still
 * `sending`: a reply lost after the commit leaves one behind that `recover()` would otherwise send.
 * Answers whether paying again is safe: no intent remains, or none under which money may have moved.
 * An intent another call created stays as it is: that call may have sent it.
 */
async function closeNeverSent(hook: JournalHook, payment: JournaledPayment<unknown>) {
  try {
    const after = await bounded(
      hook.journal.update(payment.intent.referenceId, {
        state: 'closed',
        reason: NEVER_SENT,
        ifState: ['sending'],
        ifRecordedBy: payment.intent.recordedBy,
      }),
      { endpoint: payment.bounds.endpoint, signal: undefined, timeoutMs: CLOSE_BOUND_MS },
    );
    // No intent now proves nothing: this call's record, or an earlier call's that timed out, may
    // still be on its way to the store. Retrying under the same reference id is always safe.
    if (after === undefined) return false;
    // Safe to pay again only when nothing moved under the reference: this call's intent, now closed,
    // or an earlier call's refusal. An applied or open one may have moved money already.
    return (
      (after.state === 'closed' && after.recordedBy === payment.intent.recordedBy) ||
      after.state === 'refused'
    );
  } catch {
    return false;
  }
}

/**
 * Records the intent within the call's bounds and answers it as the journal holds it; on failure,
 * closes it and throws what remains.
 */
async function recordIntent(hook: JournalHook, payment: JournaledPayment<unknown>): Promise<PaymentIntent> {
  // A first send holds its intent under a sending lease taken by this same write; a re-send runs
  // under the lease of whoever resolves it (the sweeper's), or under none (`resolveOutcome`).
  const intent = payment.resend ? payment.intent : { ...payment.intent, sendingLeaseMs: SENDING_LEASE_MS };
  try {
    return await bounded(hook.journal.record(intent), payment.bounds);
  } catch (cause) {
    const closed = await closeNeverSent(hook, payment);
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

/**
 * What the caller is told when a call fails whose reference another call recorded before: that call
 * may have sent it, so only a business refusal (as for `resolveOutcome`), of a payment not known
 * accepted, is an answer about the payment; anything else, `reference_already_used` included,
 * leaves it unknown, as the journal records it.
 */
function afterEarlierAttempt(
  error: unknown,
  held: PaymentIntent,
  payment: JournaledPayment<unknown>,
): unknown {
  if (error instanceof WalletOutcomeUnknownError) return error;
  if (!ACCEPTED_STATES.has(held.state) && isBusinessRefusal(error)) return error;
  return new WalletOutcomeUnknownError({
    endpoint: payment.bounds.endpoint,
    referenceId: payment.intent.referenceId,
    attempts: error instanceof WalletConnectionError ? error.attempts : 1,
    reason: `an earlier call with this reference_id may have been applied (the journal holds it ${held.state}), and this one got no answer about it`,
    cause: error,
    body: payment.intent.body,
  });
}

/**
 * A refusal whose outcome could not be written would leave an open intent that `recover()` sends,
 * while the caller, told "not applied", pays again: the write is tried once more, within a short
 * bound, and if it fails too the caller gets a `WalletJournalError` that says the payment may be
 * sent later (its `cause` is the refusal), so it retries only under the same reference id.
 */
async function refusalLeftOpen(
  hook: JournalHook,
  payment: JournaledPayment<unknown>,
  outcome: PaymentIntentUpdate,
  refusal: unknown,
): Promise<unknown> {
  const again = {
    ...payment,
    bounds: { endpoint: payment.bounds.endpoint, signal: undefined, timeoutMs: CLOSE_BOUND_MS },
  };
  if ((await writeOutcome(hook, again, outcome)) === undefined) return refusal;
  const error = new WalletJournalError({
    operation: 'update',
    referenceId: payment.intent.referenceId,
    cause: refusal,
    mayBeSentLater: true,
  });
  error.merchant = payment.intent.merchant;
  return error;
}

/**
 * Whether another call recorded the intent since this one did, judged on the journal's state when
 * the answer arrives: `recover()` or a sweeper may have re-sent it meanwhile, and its send may be the
 * one the service applied. A `reference_already_used` answer to a reference the journal holds says
 * so by itself. A read that fails leaves the record-time view.
 */
async function sentByAnother(
  hook: JournalHook,
  payment: JournaledPayment<unknown>,
  error: unknown,
): Promise<PaymentIntent | undefined> {
  try {
    const now = await bounded(hook.journal.get(payment.intent.referenceId), {
      endpoint: payment.bounds.endpoint,
      signal: undefined,
      timeoutMs: CLOSE_BOUND_MS,
    });
    if (now !== undefined && (now.records > 1 || isAlreadyApplied(error))) return now;
  } catch {
    // The record-time view stands, but for the answer that names an earlier send itself.
  }
  return undefined;
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
      stampMerchant(error, merchant);
      throw error;
    }
  }
  const held = await recordIntent(hook, payment);
  // An intent another call recorded too means that call may have sent it, and it may have been applied.
  let earlier = !payment.resend && held.records > 1;
  const { referenceId, recordedBy } = payment.intent;
  const lease = payment.resend
    ? undefined
    : keepSendingLease(hook.journal, hook.logger, referenceId, recordedBy);
  let result: T;
  try {
    result = await payment.send();
  } catch (sent) {
    lease?.stop();
    // Decided again now the answer is here: another call may have recorded and sent it meanwhile.
    const current = earlier || payment.resend ? undefined : await sentByAnother(hook, payment, sent);
    earlier ||= current !== undefined;
    const error = earlier ? afterEarlierAttempt(sent, current ?? held, payment) : sent;
    stampMerchant(error, merchant);
    const outcome = outcomeOf(error, payment.resend || earlier);
    const failure = await writeOutcome(hook, payment, outcome);
    if (failure !== undefined && outcome.state === 'refused')
      throw await refusalLeftOpen(hook, payment, outcome, error);
    if (failure !== undefined && error instanceof WalletError) error.journalError = failure;
    if (failure === undefined && outcome.state === 'refused')
      await settleIfFinal(hook, payment.intent.referenceId, 'refused', payment.via ?? 'answer');
    throw error;
  }
  lease?.stop();
  const failure = await writeOutcome(hook, payment, {
    state: acceptedState(result.transaction_status),
    transactionId: result.transaction_id,
    transactionStatus: result.transaction_status,
    settledBy: payment.via ?? 'answer',
  });
  if (failure !== undefined) return { ...result, journalError: failure };
  await settleIfFinal(hook, payment.intent.referenceId, result.transaction_status, payment.via ?? 'answer');
  return result;
}

/**
 * Records a status read in the journal: the transaction exists, so its payment was accepted, and the
 * status names its state (`accepted`, `completed` or `failed`). Found by
 * `reference_id` when the answer carries one (this fills in the id of a payment whose answer was
 * lost, e.g. when a webhook handler's `verifyWith` reads it back), else by transaction id. A failure
 * is logged, never thrown: a read moved no money.
 */
export async function noteStatus(
  hook: JournalHook | undefined,
  status: TransactionResult,
  settledBy: SettledBy = 'status_read',
) {
  if (hook === undefined) return;
  const { reference_id, transaction_id: transactionId, transaction_status: transactionStatus } = status;
  try {
    const state = acceptedState(transactionStatus);
    const intent =
      reference_id === undefined
        ? await hook.journal.updateByTransactionId(transactionId, { state, transactionStatus, settledBy })
        : await hook.journal.update(reference_id, { state, transactionId, transactionStatus, settledBy });
    if (intent !== undefined) await settleIfFinal(hook, intent.referenceId, transactionStatus, settledBy);
  } catch (cause) {
    hook.logger?.warn?.('The payment journal could not record a transaction status', {
      transactionId,
      cause: cause instanceof Error ? cause.message : String(cause),
    });
  }
}
