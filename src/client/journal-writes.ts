/**
 * The journal writes around a deposit or withdrawal: the intent before sending (closed as never
 * sent when its write fails), the outcome after the answer (awaited, or written behind a success's
 * answer), and the settlement of a final outcome.
 */
import { WalletJournalError } from '../errors.js';
import { bounded, type JournalBounds } from '../journal/bounded.js';
import {
  FINAL_STATUSES,
  type NewPaymentIntent,
  type PaymentIntent,
  type PaymentIntentUpdate,
  type PaymentJournal,
  type SettledBy,
} from '../journal/types.js';
import type { WalletLogger } from '../logger.js';
import { type Settlement, settle } from '../settlement/settle.js';
import { SENDING_LEASE_MS } from './sending-lease.js';
import type { WritesBehind } from './write-behind.js';

/**
 * The journal, where to report its failures, how final payments are settled (`onSettled`), and the
 * outcome writes its calls did not wait for.
 */
export interface JournalHook {
  readonly journal: PaymentJournal;
  readonly logger: WalletLogger | undefined;
  readonly settlement: Settlement | undefined;
  readonly behind: WritesBehind;
}

/** Settles the payment when the hook settles and `status` is final (or `refused`); never throws. */
export async function settleIfFinal(
  hook: JournalHook,
  referenceId: string,
  status: string,
  path: SettledBy,
): Promise<void> {
  if (hook.settlement !== undefined && (FINAL_STATUSES.has(status) || status === 'refused'))
    await settle(hook.settlement, referenceId, path);
}

/** One deposit or withdrawal to send between its journal writes. */
export interface JournaledPayment<T> {
  readonly intent: NewPaymentIntent & { readonly merchant: string; readonly recordedBy: string };
  readonly bounds: JournalBounds;
  readonly send: () => Promise<T>;
  /** A re-send of a payment whose outcome is unknown (see `outcomeOf` in journal/outcome.ts). */
  readonly resend: boolean;
  /** The path a final answer settles the payment by. @default 'answer' */
  readonly via?: SettledBy | undefined;
}

/**
 * How long closing a failed record may take. Short: the caller is waiting, and a close that does
 * not answer only means the error says an intent may remain.
 */
export const CLOSE_BOUND_MS = 2_000;
const NEVER_SENT = 'not sent: recording the intent failed';

/**
 * Writes a payment's outcome within `bounds` (the call's own unless given); answers the
 * `WalletJournalError` it logged when the write failed, else `undefined`.
 */
export async function writeOutcome(
  hook: JournalHook,
  payment: JournaledPayment<unknown>,
  update: PaymentIntentUpdate,
  bounds: JournalBounds = payment.bounds,
) {
  const { referenceId, merchant } = payment.intent;
  try {
    await bounded(hook.journal.update(referenceId, update), bounds);
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
export async function recordIntent(
  hook: JournalHook,
  payment: JournaledPayment<unknown>,
): Promise<PaymentIntent> {
  // A first send holds its intent under a sending lease taken by this same write; a re-send runs
  // under the lease of whoever resolves it (the sweeper's), or under none (`resolveOutcome`).
  // The lease's key goes first, as in the engine's intent (a key added after a spread is slow in V8).
  const intent = payment.resend ? payment.intent : { sendingLeaseMs: SENDING_LEASE_MS, ...payment.intent };
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
 * Whether a success's outcome is written behind the answer: on a first send, whose sending lease
 * keeps every re-send away until the outcome lands or the lease ends, and when no `onSettled` is
 * owed the caller's path (with one, the call resolves once its fulfilment ran, as documented). A
 * re-send holds no lease of its own and waits, as `recover()` and the sweeper report what they wrote.
 */
export function writesBehind(hook: JournalHook, payment: JournaledPayment<unknown>): boolean {
  return !payment.resend && hook.settlement?.onSettled === undefined;
}

/**
 * A success's outcome, written after the caller has its answer, then its settlement (`onRefused`
 * alone marks it settled). Bounded by the call's `timeoutMs`, never by its `signal`: the answer is
 * already given. A failure is logged; the intent stays `sending` under its lease, and is judged
 * by `recover()` or the sweeper once the lease ends. Never rejects.
 */
export async function writeBehind(
  hook: JournalHook,
  payment: JournaledPayment<unknown>,
  outcome: PaymentIntentUpdate,
  status: string,
): Promise<void> {
  const { bounds } = payment;
  const unsignalled = bounds.signal === undefined ? bounds : { ...bounds, signal: undefined };
  if ((await writeOutcome(hook, payment, outcome, unsignalled)) !== undefined) return;
  await settleIfFinal(hook, payment.intent.referenceId, status, payment.via ?? 'answer');
}
