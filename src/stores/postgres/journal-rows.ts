/** How the PostgreSQL journal reads an intent row. */
import { freshIntent } from '../../journal/merge.js';
import type { NewPaymentIntent, PaymentIntent, SettledBy } from '../../journal/types.js';

/** A timestamp column read as an ISO 8601 UTC string, to the microsecond, under its own name. */
export const isoColumn = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS ${column}`;

/** The columns of an intent as read back, timestamps as ISO 8601 UTC strings. */
export const COLUMNS = `reference_id, endpoint, body, merchant, recorded_by, user_email, metadata, records, state, transaction_id, transaction_status, reason,
  ${isoColumn('created_at')}, ${isoColumn('updated_at')}, ${isoColumn('settled_at')}, ${isoColumn('next_check_at')}, checks,
  ${isoColumn('lease_until')}, key_fingerprint, settled_by`;

/**
 * Whether an update moving an intent to the state `nextStateSql(next)` gives frees its lease: an
 * outcome (any state but `sending`) frees the sending lease of the call that recorded it; a
 * sweeper's or a settlement's lease stays.
 */
export function freesSendingLeaseSql(next: string): string {
  return `(lease LIKE 'sending:%' AND (${nextStateSql(next)}) <> 'sending')`;
}

/** The SET clauses freeing an intent's lease where `frees` holds, and keeping it elsewhere. */
export function freeLeaseWhenSql(frees: string): string {
  return `lease = CASE WHEN ${frees} THEN NULL ELSE lease END,
    lease_until = CASE WHEN ${frees} THEN NULL ELSE lease_until END`;
}

/** The SET clauses of an update moving an intent to `nextStateSql(next)`: see {@link freesSendingLeaseSql}. */
export function freeSendingLeaseSql(next: string): string {
  return freeLeaseWhenSql(freesSendingLeaseSql(next));
}

/**
 * The `settled_by` an update leaves, given the new state `next` and path `by`: set only by the
 * update that moves the intent into a final state (`mergeIntent` of src/journal/merge.ts in SQL).
 */
export function settledBySql(next: string, by: string): string {
  return `CASE WHEN state NOT IN ('completed', 'failed') AND ${nextStateSql(next)} IN ('completed', 'failed')
    AND ${by} IS NOT NULL THEN ${by} ELSE settled_by END`;
}

/**
 * The state an update leaves, given the new state `next` (NULL for none): `canMove` of
 * src/journal/merge.ts in SQL. `completed` and `failed` never change, `accepted` changes only into
 * them, and no definite state goes back to `sending` or `unknown`.
 */
export function nextStateSql(next: string): string {
  return `CASE WHEN ${next} IS NULL OR state IN ('completed', 'failed')
    OR (state = 'accepted' AND ${next} NOT IN ('completed', 'failed'))
    OR (state IN ('refused', 'closed') AND ${next} IN ('sending', 'unknown')) THEN state ELSE ${next} END`;
}

/**
 * The `transaction_status` an update leaves, given the new status `next` (NULL for none): a final
 * status sticks, so a late read of `pending` never takes it back (`mergeIntent` of
 * src/journal/merge.ts in SQL).
 */
export function finalStatusSticksSql(next: string): string {
  return `CASE WHEN transaction_status IN ('completed', 'failed') THEN transaction_status
    ELSE COALESCE(${next}, transaction_status) END`;
}

/** A row read with {@link COLUMNS}. */
export interface IntentRow {
  reference_id: string;
  endpoint: 'deposit' | 'withdraw';
  body: Record<string, unknown>;
  merchant: string | null;
  recorded_by: string | null;
  user_email: string | null;
  metadata: Record<string, string> | null;
  records: number;
  state: PaymentIntent['state'];
  transaction_id: string | null;
  transaction_status: string | null;
  reason: string | null;
  created_at: string;
  updated_at: string;
  settled_at: string | null;
  next_check_at: string | null;
  checks: number;
  lease_until: string | null;
  key_fingerprint: string | null;
  settled_by: string | null;
}

/**
 * The intent of a row read with {@link COLUMNS}; `undefined` for no row. Every field is present,
 * set or `undefined`, so intents share one shape.
 */
export function toIntent(row: unknown): PaymentIntent | undefined {
  if (row === undefined) return undefined;
  const r = row as IntentRow;
  return {
    referenceId: r.reference_id,
    endpoint: r.endpoint,
    body: r.body,
    merchant: r.merchant ?? undefined,
    recordedBy: r.recorded_by ?? undefined,
    keyFingerprint: r.key_fingerprint ?? undefined,
    userEmail: r.user_email ?? undefined,
    metadata: r.metadata ?? undefined,
    records: r.records,
    state: r.state,
    transactionId: r.transaction_id ?? undefined,
    transactionStatus: r.transaction_status ?? undefined,
    reason: r.reason ?? undefined,
    settledAt: r.settled_at ?? undefined,
    settledBy: (r.settled_by ?? undefined) as SettledBy | undefined,
    nextCheckAt: r.next_check_at ?? undefined,
    checks: r.checks,
    leaseUntil: r.lease_until ?? undefined,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** What the database set on a row a record inserted: its count, its time and its sending lease's end. */
export interface RecordedRow {
  reference_id: string;
  records: number;
  created_at: string;
  lease_until: string | null;
}

/** The columns of {@link RecordedRow}, as a record statement answers them. */
export const RECORDED_COLUMNS = `reference_id, records, ${isoColumn('created_at')}, ${isoColumn('lease_until')}`;

/**
 * The intent a record inserted, as {@link toIntent} reads it back: what the caller passed, and what
 * the database set (its time, its sending lease), so the body is neither sent back nor parsed again.
 */
export function insertedIntent(intent: NewPaymentIntent, row: RecordedRow): PaymentIntent {
  return {
    ...freshIntent(intent, row.created_at),
    records: row.records,
    checks: 0,
    leaseUntil: row.lease_until ?? undefined,
  };
}
