import {
  WalletConnectionError,
  WalletError,
  WalletJournalError,
  WalletOutcomeUnknownError,
} from '../errors.js';
import { bounded } from '../journal/bounded.js';
import { acceptedState } from '../journal/merge.js';
import { isAlreadyApplied, isBusinessRefusal, outcomeOf } from '../journal/outcome.js';
import {
  ACCEPTED_STATES,
  type PaymentIntent,
  type PaymentIntentUpdate,
  type SettledBy,
} from '../journal/types.js';
import type { TransactionResult } from '../schemas/responses.js';
import {
  CLOSE_BOUND_MS,
  type JournaledPayment,
  type JournalHook,
  recordIntent,
  settleIfFinal,
  writeBehind,
  writeOutcome,
  writesBehind,
} from './journal-writes.js';
import { stampMerchant } from './merchant-stamp.js';
import { type SendingLeases, sendingLeases } from './sending-lease.js';

export type { JournaledPayment, JournalHook } from './journal-writes.js';

/** An answer the journal can record: it names the transaction and its status. */
export interface Journalable {
  readonly transaction_id: string;
  readonly transaction_status: string;
}

/** What a deposit or withdrawal resolves with; `journalError` is set when writing its outcome failed. */
export type Journaled<T> = T & {
  /**
   * Set when the payment went through but its outcome could not be written to the journal, on a
   * call that waited for that write (with `onSettled`, or a re-send). A first send without
   * `onSettled` writes its outcome behind the answer, and a failure there is only logged.
   */
  readonly journalError?: WalletJournalError;
};

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
  const bounds = { endpoint: payment.bounds.endpoint, signal: undefined, timeoutMs: CLOSE_BOUND_MS };
  if ((await writeOutcome(hook, payment, outcome, bounds)) === undefined) return refusal;
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

/** Each client's sending leases, made on its first journaled payment. */
const leasesByHook = new WeakMap<JournalHook, SendingLeases>();

function leasesOf(hook: JournalHook): SendingLeases {
  let leases = leasesByHook.get(hook);
  if (leases === undefined) {
    leases = sendingLeases(hook.journal, hook.logger);
    leasesByHook.set(hook, leases);
  }
  return leases;
}

/**
 * Sends a deposit or withdrawal between two journal writes: the intent before (its failure stops the
 * payment, nothing sent) and the outcome after (its failure keeps the answer, logs, and sets
 * `journalError`). Both writes obey the call's `signal` and `timeoutMs`. A success's outcome on a
 * first send without `onSettled` is written behind the answer instead (see `writesBehind`). A
 * client without a journal never loads this: the engine sends its payments as they are.
 */
export async function sendJournaled<T extends Journalable>(
  hook: JournalHook,
  payment: JournaledPayment<T>,
): Promise<Journaled<T>> {
  const merchant = payment.intent.merchant;
  const held = await recordIntent(hook, payment);
  // An intent another call recorded too means that call may have sent it, and it may have been applied.
  let earlier = !payment.resend && held.records > 1;
  const leases = leasesOf(hook);
  const lease = payment.resend
    ? undefined
    : leases.hold(payment.intent.referenceId, payment.intent.recordedBy);
  let result: T;
  try {
    result = await payment.send();
  } catch (sent) {
    leases.release(lease);
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
  leases.release(lease);
  const outcome: PaymentIntentUpdate = {
    state: acceptedState(result.transaction_status),
    transactionId: result.transaction_id,
    transactionStatus: result.transaction_status,
    settledBy: payment.via ?? 'answer',
  };
  if (writesBehind(hook, payment)) {
    hook.behind.add(() => writeBehind(hook, payment, outcome, result.transaction_status));
    return result;
  }
  const failure = await writeOutcome(hook, payment, outcome);
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
