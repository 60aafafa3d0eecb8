/**
 * The checks of the journal's arguments, shared by every adapter: each refuses a bad argument with a
 * `WalletRequestValidationError` naming its field, before anything is written.
 */
import { WalletRequestValidationError } from '../errors.js';
import {
  FINAL_STATES,
  FINAL_STATUSES,
  type ListIntentsOptions,
  type NewPaymentIntent,
  PAYMENT_INTENT_STATES,
  type PaymentIntentState,
  type PaymentIntentUpdate,
  SETTLED_BY,
} from './types.js';

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
