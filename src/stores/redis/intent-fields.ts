/**
 * How the Redis journal's scripts answer an intent, and how the client reads it: the hash's values in
 * one fixed order (HMGET), so the answer carries no field names and is read by position, with no map
 * of fields. A fresh record answers none of them: the client builds the intent from what it sent.
 */
import { isoClock } from '../../journal/clock.js';
import type {
  NewPaymentIntent,
  PaymentIntent,
  PaymentIntentEndpoint,
  SettledBy,
} from '../../journal/types.js';
import { readState } from './legacy-states.js';

/** The hash fields of an intent, in the order every script answers them. */
export const INTENT_FIELDS = [
  'referenceId',
  'endpoint',
  'body',
  'merchant',
  'recordedBy',
  'userEmail',
  'keyFingerprint',
  'metadata',
  'records',
  'state',
  'transactionId',
  'transactionStatus',
  'reason',
  'createdAt',
  'updatedAt',
  'settledAt',
  'nextCheckAt',
  'checks',
  'leaseUntil',
  'settledBy',
] as const;

/**
 * The fields of {@link INTENT_FIELDS} as Lua string literals, comma-separated: the words a script
 * gives `HMGET` itself, so no script builds a table of them on every run.
 */
export const INTENT_FIELD_WORDS_LUA = INTENT_FIELDS.map((field) => `'${field}'`).join(', ');

/**
 * Lua that starts every script answering an intent it did not change: a function `readIntent(key)`
 * answering the intent at `key` as {@link INTENT_FIELDS}' values (false where a field is absent, all
 * false when there is no intent).
 */
export const READ_INTENT_LUA = `local function readIntent(key)
  return redis.call('HMGET', key, ${INTENT_FIELD_WORDS_LUA})
end
`;

/**
 * A field's position in a script's answer, counted from 1 as Lua counts: written into a script's
 * source as a number, where a table of positions would be built on every run.
 */
export function fieldAt(field: (typeof INTENT_FIELDS)[number]): number {
  return INTENT_FIELDS.indexOf(field) + 1;
}

/** What a client gives for a value: a string, or `null` (`undefined` on some clients) for none. */
type Value = string | null | undefined;

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
    records,
    state,
    transactionId,
    transactionStatus,
    reason,
    createdAt,
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

/** A lease's end as its ISO 8601 text: the leases taken in one millisecond share one. */
const leaseIsoAt = isoClock();

/** Adds the fields an intent has only when they are stored (absent, not `undefined`, otherwise). */
function withOptional(
  intent: PaymentIntent,
  keyFingerprint: string | undefined,
  leaseUntilMs: Value | number,
  settledBy: SettledBy | undefined,
): PaymentIntent {
  const writable = intent as { -readonly [K in keyof PaymentIntent]: PaymentIntent[K] };
  if (keyFingerprint !== undefined) writable.keyFingerprint = keyFingerprint;
  if (leaseUntilMs !== null && leaseUntilMs !== undefined)
    writable.leaseUntil = leaseIsoAt(Number(leaseUntilMs));
  // Absent on intents settled before the path was kept: no migration is needed for a hash field.
  if (settledBy !== undefined) writable.settledBy = settledBy;
  return writable;
}

/** What a fresh record wrote, as the client sent it to the record script. */
export interface FreshRecord {
  /** The intent as the caller gave it. */
  readonly intent: NewPaymentIntent;
  /** Its body as JSON, as stored. */
  readonly body: string;
  /** Its metadata as JSON, as stored; `''` for none. */
  readonly metadata: string;
  /** The recording time on the store's clock, ms since the epoch. */
  readonly nowMs: number;
  /** The same time in ISO 8601, as stored. */
  readonly now: string;
}

/**
 * The intent a fresh record stored, built from what was sent, equal field for field to what
 * {@link intentFromValues} reads back: empty strings are not stored, the body and metadata are what
 * their JSON reads as, and the sending lease is held when the intent names its recording call.
 */
export function freshIntent(record: FreshRecord): PaymentIntent {
  const { intent, now } = record;
  const recordedBy = intent.recordedBy || undefined;
  const leaseMs = intent.sendingLeaseMs;
  const built: PaymentIntent = {
    referenceId: intent.referenceId,
    endpoint: intent.endpoint,
    body: JSON.parse(record.body) as Record<string, unknown>,
    merchant: intent.merchant || undefined,
    recordedBy,
    userEmail: intent.userEmail || undefined,
    metadata: record.metadata === '' ? undefined : (JSON.parse(record.metadata) as Record<string, string>),
    records: 1,
    state: 'sending',
    transactionId: undefined,
    transactionStatus: undefined,
    reason: undefined,
    createdAt: now,
    updatedAt: now,
    settledAt: undefined,
    nextCheckAt: undefined,
    checks: 0,
  };
  const leaseUntil = recordedBy !== undefined && leaseMs !== undefined ? record.nowMs + leaseMs : undefined;
  return withOptional(built, intent.keyFingerprint || undefined, leaseUntil, undefined);
}
