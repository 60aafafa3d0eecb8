import { WalletRequestValidationError } from '../errors.js';
import {
  DEFINITE_STATES,
  FINAL_STATES,
  FINAL_STATUSES,
  type ListIntentsOptions,
  type NewPaymentIntent,
  PAYMENT_INTENT_STATES,
  type PaymentIntent,
  type PaymentIntentState,
  type PaymentIntentUpdate,
  SETTLED_BY,
} from './types.js';

/** A new intent in state `sending`, stamped `now`. */
export function freshIntent(intent: NewPaymentIntent, now: string): PaymentIntent {
  return {
    referenceId: intent.referenceId,
    endpoint: intent.endpoint,
    body: intent.body,
    merchant: intent.merchant,
    recordedBy: intent.recordedBy,
    ...(intent.keyFingerprint === undefined ? {} : { keyFingerprint: intent.keyFingerprint }),
    userEmail: intent.userEmail,
    metadata: intent.metadata,
    records: 1,
    state: 'sending',
    transactionId: undefined,
    transactionStatus: undefined,
    reason: undefined,
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
    ...(settles && update.settledBy !== undefined ? { settledBy: update.settledBy } : {}),
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

function fail(path: string, message: string): never {
  throw new WalletRequestValidationError([{ path, message }], 'Invalid journal call');
}

/** Refuses a reference or transaction id that is not a non-empty string. */
export function checkId(path: string, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0) fail(path, 'must be a non-empty string');
  return value;
}

/** Refuses an intent without a reference id, a known endpoint or a body object. */
export function checkNewIntent(intent: NewPaymentIntent): NewPaymentIntent {
  if (typeof intent !== 'object' || intent === null) fail('intent', 'must be an object');
  checkId('referenceId', intent.referenceId);
  if (intent.endpoint !== 'deposit' && intent.endpoint !== 'withdraw')
    fail('endpoint', 'must be "deposit" or "withdraw"');
  if (typeof intent.body !== 'object' || intent.body === null || Array.isArray(intent.body))
    fail('body', 'must be an object');
  for (const key of ['merchant', 'recordedBy', 'userEmail', 'keyFingerprint'] as const) {
    if (intent[key] !== undefined && typeof intent[key] !== 'string') fail(key, 'must be a string');
  }
  checkMetadata(intent.metadata, 'metadata');
  const leaseMs = intent.sendingLeaseMs;
  if (leaseMs !== undefined && !(Number.isSafeInteger(leaseMs) && leaseMs > 0))
    fail('sendingLeaseMs', 'must be a positive whole number of milliseconds');
  return intent;
}

/** Refuses an update whose state is not one of {@link PAYMENT_INTENT_STATES} or whose fields are not strings. */
export function checkUpdate(update: PaymentIntentUpdate): PaymentIntentUpdate {
  if (typeof update !== 'object' || update === null) fail('update', 'must be an object');
  if (update.state !== undefined) checkState(update.state, 'update.state');
  for (const key of ['transactionId', 'transactionStatus', 'reason', 'ifRecordedBy'] as const) {
    const value = update[key];
    if (value !== undefined && typeof value !== 'string') fail(`update.${key}`, 'must be a string');
  }
  checkOutcomeState(update);
  if (update.settledBy !== undefined) oneOf(update.settledBy, SETTLED_BY, 'update.settledBy');
  if (update.ifState !== undefined) {
    if (!Array.isArray(update.ifState)) fail('update.ifState', 'must be an array of states');
    for (const [index, state] of update.ifState.entries()) checkState(state, `update.ifState.${index}`);
  }
  return update;
}

/**
 * Refuses an update whose state and transaction status disagree: a final status comes with the state
 * of its name, and `completed` or `failed` with that status.
 */
function checkOutcomeState({ state, transactionStatus }: PaymentIntentUpdate): void {
  const finalStatus = transactionStatus !== undefined && FINAL_STATUSES.has(transactionStatus);
  if (finalStatus && state !== transactionStatus) {
    fail('update.state', `must be "${transactionStatus}" with transactionStatus "${transactionStatus}"`);
  }
  if (state !== undefined && FINAL_STATES.has(state) && transactionStatus !== state) {
    fail('update.transactionStatus', `must be "${state}" with state "${state}"`);
  }
}

/** Refuses a state that is not one of {@link PAYMENT_INTENT_STATES}. */
export function checkState(state: unknown, path = 'state'): PaymentIntentState {
  return oneOf(state, PAYMENT_INTENT_STATES, path);
}

/** `value` when it is one of `list`; a validation error naming `path` and the list otherwise. */
function oneOf<T>(value: unknown, list: readonly T[], path: string): T {
  if (!(list as readonly unknown[]).includes(value)) fail(path, `must be one of ${list.join(', ')}`);
  return value as T;
}

/** The `limit` of {@link ListIntentsOptions}, or `undefined` for all. */
export function checkLimit(options: ListIntentsOptions | undefined): number | undefined {
  const limit = options?.limit;
  if (limit === undefined) return undefined;
  if (!Number.isSafeInteger(limit) || limit <= 0) fail('limit', 'must be a positive integer');
  return limit;
}

/** The most keys, key length and value length of an intent's `metadata`. */
export const METADATA_LIMITS = { keys: 20, keyLength: 40, valueLength: 500 } as const;

/**
 * Refuses `metadata` that is not an object of string values within {@link METADATA_LIMITS}, naming
 * `path` (and the key at fault).
 */
export function checkMetadata(metadata: unknown, path: string): Readonly<Record<string, string>> | undefined {
  if (metadata === undefined) return undefined;
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))
    fail(path, 'must be an object');
  const entries = Object.entries(metadata);
  if (entries.length > METADATA_LIMITS.keys) fail(path, `must have at most ${METADATA_LIMITS.keys} keys`);
  for (const [key, value] of entries) {
    if (key.length === 0 || key.length > METADATA_LIMITS.keyLength) {
      fail(path, `keys must be 1 to ${METADATA_LIMITS.keyLength} characters`);
    }
    if (typeof value !== 'string' || value.length > METADATA_LIMITS.valueLength) {
      fail(`${path}.${key}`, `must be a string of at most ${METADATA_LIMITS.valueLength} characters`);
    }
  }
  return metadata as Readonly<Record<string, string>>;
}
