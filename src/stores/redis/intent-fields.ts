/**
 * How the Redis journal's scripts answer an intent, and how the client reads it: the hash's values in
 * one fixed order (HMGET), so the answer carries no field names and is read by position, with no map
 * of fields. A fresh record answers none of them (its sequence number alone): the client builds the
 * intent from what it sent. An update of an intent the client knows answers only the fields that
 * change after a record (known-intents.ts).
 */
import type {
  NewPaymentIntent,
  PaymentIntent,
  PaymentIntentEndpoint,
  SettledBy,
} from '../../journal/types.js';
import { readState } from './legacy-states.js';

/** The fields a record writes and nothing changes after, first in every answer. */
export const FIXED_FIELDS = [
  'referenceId',
  'endpoint',
  'body',
  'merchant',
  'recordedBy',
  'userEmail',
  'keyFingerprint',
  'metadata',
  'createdAt',
] as const;

/** The fields that may change after a record, after {@link FIXED_FIELDS} in every answer. */
export const CHANGING_FIELDS = [
  'records',
  'state',
  'transactionId',
  'transactionStatus',
  'reason',
  'updatedAt',
  'settledAt',
  'nextCheckAt',
  'checks',
  'leaseUntil',
  'settledBy',
] as const;

/** The hash fields of an intent, in the order every script answers them. */
export const INTENT_FIELDS = [...FIXED_FIELDS, ...CHANGING_FIELDS] as const;

/**
 * A Lua function `readIntent(key)` answering the intent at `key` as {@link INTENT_FIELDS}' values
 * (nil where a field is absent, all nil when there is no intent); scripts that answer an intent start
 * with it.
 */
export const READ_INTENT_LUA = `local function readIntent(key)
  return redis.call('HMGET', key, ${INTENT_FIELDS.map((field) => `'${field}'`).join(', ')})
end
`;

/**
 * {@link READ_INTENT_LUA} and a Lua function `readKnown(key, seq)`: when the intent's sequence number
 * is `seq` (the client holds its fixed fields), only {@link CHANGING_FIELDS}' values; else (`seq`
 * '', or another intent under the key) all of them, as `readIntent`.
 */
export const READ_KNOWN_LUA = `${READ_INTENT_LUA}local function readKnown(key, seq)
  if seq ~= '' and redis.call('HGET', key, 'seq') == seq then
    return redis.call('HMGET', key, ${CHANGING_FIELDS.map((field) => `'${field}'`).join(', ')})
  end
  return readIntent(key)
end
`;

/** What a client gives for a value: a string, or `null` (`undefined` on some clients) for none. */
export type Value = string | null | undefined;

const text = (value: Value): string | undefined =>
  value === null || value === undefined ? undefined : String(value);

/**
 * The intent a script answered as {@link INTENT_FIELDS}' values; `undefined` for no intent (all
 * values nil, or anything but a list). Intents written by earlier versions read as they always did:
 * no record count means one record, `applied` reads as the state of its outcome.
 */
export function intentFromValues(reply: unknown): PaymentIntent | undefined {
  if (!Array.isArray(reply)) return undefined;
  const [
    referenceId,
    endpoint,
    body,
    merchant,
    recordedBy,
    userEmail,
    keyFingerprint,
    metadata,
    createdAt,
    records,
    state,
    transactionId,
    transactionStatus,
    reason,
    updatedAt,
    settledAt,
    nextCheckAt,
    checks,
    leaseUntil,
    settledBy,
  ] = reply as Value[];
  if (referenceId === null || referenceId === undefined) return undefined;
  const status = text(transactionStatus);
  const intent: PaymentIntent = {
    referenceId: String(referenceId),
    endpoint: text(endpoint) as PaymentIntentEndpoint,
    body: JSON.parse(text(body) as string) as Record<string, unknown>,
    merchant: text(merchant),
    recordedBy: text(recordedBy),
    userEmail: text(userEmail),
    metadata: metadata == null ? undefined : (JSON.parse(String(metadata)) as Record<string, string>),
    // An intent written before the count was kept had been recorded at least once.
    records: records == null ? 1 : Number(records),
    state: readState(text(state), status),
    transactionId: text(transactionId),
    transactionStatus: status,
    reason: text(reason),
    createdAt: text(createdAt) as string,
    updatedAt: text(updatedAt) as string,
    settledAt: text(settledAt),
    nextCheckAt: text(nextCheckAt),
    checks: checks == null ? 0 : Number(checks),
  };
  return withOptional(intent, text(keyFingerprint), leaseUntil, text(settledBy) as SettledBy | undefined);
}

/** Adds the fields an intent has only when they are stored (absent, not `undefined`, otherwise). */
function withOptional(
  intent: PaymentIntent,
  keyFingerprint: string | undefined,
  leaseUntilMs: Value,
  settledBy: SettledBy | undefined,
): PaymentIntent {
  const writable = intent as { -readonly [K in keyof PaymentIntent]: PaymentIntent[K] };
  if (keyFingerprint !== undefined) writable.keyFingerprint = keyFingerprint;
  if (leaseUntilMs !== null && leaseUntilMs !== undefined)
    writable.leaseUntil = new Date(Number(leaseUntilMs)).toISOString();
  // Absent on intents settled before the path was kept: no migration is needed for a hash field.
  if (settledBy !== undefined) writable.settledBy = settledBy;
  return writable;
}

/**
 * The fixed fields' values a fresh record of `intent` stored, in {@link FIXED_FIELDS}' order, from
 * what it sent: empty strings are not stored, so they read as none.
 */
export function fixedValues(
  intent: NewPaymentIntent,
  body: string,
  metadata: string,
  createdAt: string,
): Value[] {
  return [
    intent.referenceId,
    intent.endpoint,
    body,
    intent.merchant || null,
    intent.recordedBy || null,
    intent.userEmail || null,
    intent.keyFingerprint || null,
    metadata || null,
    createdAt,
  ];
}

/**
 * The intent a fresh record stored, read from its fixed fields' values ({@link fixedValues}) and the
 * changing ones the record script writes: recorded once, `sending`, updated when created, held by the
 * sending lease when the intent names its recording call. Equal field for field to what
 * {@link intentFromValues} reads back from the store.
 */
export function freshIntent(intent: NewPaymentIntent, fixed: readonly Value[], nowMs: number): PaymentIntent {
  const leaseMs = intent.sendingLeaseMs;
  const leaseUntil = intent.recordedBy && leaseMs !== undefined ? String(nowMs + leaseMs) : null;
  const createdAt = fixed[FIXED_FIELDS.length - 1];
  // In the order of CHANGING_FIELDS.
  return intentFromValues([
    ...fixed,
    '1',
    'sending',
    null,
    null,
    null,
    createdAt,
    null,
    null,
    null,
    leaseUntil,
    null,
  ]) as PaymentIntent;
}
