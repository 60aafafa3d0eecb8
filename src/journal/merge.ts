/**
 * The journal's state rules, shared by every adapter: a new intent, how an update merges into one,
 * which moves between states are allowed, and the state of an accepted payment.
 */
import {
  DEFINITE_STATES,
  FINAL_STATES,
  FINAL_STATUSES,
  type NewPaymentIntent,
  type PaymentIntent,
  type PaymentIntentState,
  type PaymentIntentUpdate,
} from './types.js';

/**
 * A new intent in state `sending`, stamped `now`. Every field an intent may carry is present, set or
 * `undefined`, so intents share one shape and copying one stays cheap.
 */
export function freshIntent(intent: NewPaymentIntent, now: string): PaymentIntent {
  return {
    referenceId: intent.referenceId,
    endpoint: intent.endpoint,
    body: intent.body,
    merchant: intent.merchant,
    recordedBy: intent.recordedBy,
    keyFingerprint: intent.keyFingerprint,
    userEmail: intent.userEmail,
    metadata: intent.metadata,
    records: 1,
    state: 'sending',
    transactionId: undefined,
    transactionStatus: undefined,
    reason: undefined,
    settledAt: undefined,
    settledBy: undefined,
    nextCheckAt: undefined,
    checks: undefined,
    leaseUntil: undefined,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * `existing` with `update` applied; a definite state is kept when the update names an indefinite
 * one, and `existing` is returned as it is when it is not in one of the update's `ifState` states.
 */
export function mergeIntent(
  existing: PaymentIntent,
  update: PaymentIntentUpdate,
  now: string,
): PaymentIntent {
  if (update.ifState !== undefined && !update.ifState.includes(existing.state)) return existing;
  if (update.ifRecordedBy !== undefined && update.ifRecordedBy !== existing.recordedBy) return existing;
  const keepState = update.state === undefined || !canMove(existing.state, update.state);
  const settles = !keepState && FINAL_STATES.has(update.state as PaymentIntentState);
  return {
    ...existing,
    settledBy: settles && update.settledBy !== undefined ? update.settledBy : existing.settledBy,
    state: keepState ? existing.state : (update.state as PaymentIntentState),
    transactionId: update.transactionId ?? existing.transactionId,
    // A final status is for good: a late read of `pending` never takes it back.
    transactionStatus:
      existing.transactionStatus !== undefined && FINAL_STATUSES.has(existing.transactionStatus)
        ? existing.transactionStatus
        : (update.transactionStatus ?? existing.transactionStatus),
    reason: update.reason ?? existing.reason,
    updatedAt: now,
  };
}

/**
 * Whether an update may move an intent from state `from` to `to`. A final outcome is for good: no
 * later refusal, close or read of the reference un-moves money. An accepted payment only learns its
 * outcome, and the service's answer never turns back into doubt.
 */
export function canMove(from: PaymentIntentState, to: PaymentIntentState): boolean {
  if (from === to || FINAL_STATES.has(from)) return false;
  if (from === 'accepted') return FINAL_STATES.has(to);
  return !(DEFINITE_STATES.has(from) && !DEFINITE_STATES.has(to));
}

/**
 * The state of a payment the service accepted, by its transaction's latest status: `completed` or
 * `failed` once final, `accepted` before (and when the status is not known).
 */
export function acceptedState(transactionStatus: string | undefined): PaymentIntentState {
  return transactionStatus !== undefined && FINAL_STATUSES.has(transactionStatus)
    ? (transactionStatus as PaymentIntentState)
    : 'accepted';
}
