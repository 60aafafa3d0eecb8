/**
 * The PostgreSQL journal's writes for many intents in one statement, for group commit. Each keeps
 * the meaning of the single-intent statement exactly: a record keeps an existing intent, counting
 * one more record; an update moves a state only as `nextStateSql` allows, and changes nothing when
 * its `ifState` does not hold. A batch never holds two writes of one reference id (see `GroupCommit`),
 * and sends its writes in reference order ({@link inReferenceOrder}).
 */
import type { NewPaymentIntent, PaymentIntent, PaymentIntentUpdate } from '../../journal/types.js';
import {
  COLUMNS,
  finalStatusSticksSql,
  freeSendingLeaseSql,
  insertedIntent,
  nextStateSql,
  RECORDED_COLUMNS,
  type RecordedRow,
  settledBySql,
  toIntent,
} from './journal-rows.js';
import type { PostgresQueryable } from './queryable.js';

/** An update of the intent of `referenceId`. */
export interface ReferenceUpdate {
  readonly referenceId: string;
  readonly change: PaymentIntentUpdate;
}

/**
 * `items` in reference order, the order every multi-row statement of the journal sends its rows in.
 * Such a statement locks its rows in the order of its arrays (its plan probes the key once per
 * element), so two instances' batches touching the same rows lock them in one order and never wait
 * on each other in a cycle. In arrival order, a batch of rows A, B and one of B, A could each hold
 * one row and wait for the other (a deadlock, 40P01): PostgreSQL cancels one, and every write in it
 * fails. Each batch still answers its callers in their own order.
 */
export function inReferenceOrder<T extends { readonly referenceId: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => (a.referenceId < b.referenceId ? -1 : 1));
}

/** The intents `rows` hold, by reference id. */
export function byReference(rows: readonly unknown[]): Map<string, PaymentIntent> {
  const found = new Map<string, PaymentIntent>();
  for (const row of rows) {
    const intent = toIntent(row) as PaymentIntent;
    found.set(intent.referenceId, intent);
  }
  return found;
}

/**
 * Adds to `found` the intents of `references` a batch statement did not answer whole, as they are
 * now. A separate statement sees the rows other transactions committed while the batch waited.
 */
async function readUnwritten(
  db: PostgresQueryable,
  select: string,
  references: readonly string[],
  found: Map<string, PaymentIntent>,
): Promise<void> {
  const unwritten = references.filter((reference) => !found.has(reference));
  if (unwritten.length === 0) return;
  for (const [reference, intent] of byReference(
    (await db.query(`${select} WHERE reference_id = ANY($1::text[])`, [unwritten])).rows,
  ))
    found.set(reference, intent);
}

/**
 * The SQL recording many intents. It answers what the database set on each row: a row it inserted
 * has one record; one it kept (the intent existed) has more, and is read back whole by a second
 * statement.
 */
export function recordBatchSql(table: string): string {
  return `INSERT INTO ${table} AS held (reference_id, endpoint, body, merchant, recorded_by, user_email, metadata, state, created_at, updated_at, lease, lease_until, key_fingerprint)
  SELECT ref, new_endpoint, new_body::jsonb, new_merchant, new_recorded_by, new_user_email, new_metadata::jsonb, 'sending', at, at,
    CASE WHEN lease_ms IS NULL OR new_recorded_by IS NULL THEN NULL ELSE 'sending:' || new_recorded_by END,
    CASE WHEN lease_ms IS NULL OR new_recorded_by IS NULL THEN NULL ELSE at + lease_ms * interval '1 millisecond' END,
    new_key
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::bigint[], $9::text[])
    AS i(ref, new_endpoint, new_body, new_merchant, new_recorded_by, new_user_email, new_metadata, lease_ms, new_key),
    (SELECT clock_timestamp() AS at) AS clock
  ON CONFLICT (reference_id) DO UPDATE SET records = held.records + 1
  RETURNING ${RECORDED_COLUMNS}`;
}

/**
 * Records `intents` (distinct reference ids) in one statement, in reference order; answers each
 * intent as stored, in the order of `intents`. An intent it inserted is built from what was passed
 * and what the database set; one that existed is read back as it is now.
 */
export async function recordBatch(
  db: PostgresQueryable,
  sql: { record: string; select: string },
  intents: readonly NewPaymentIntent[],
): Promise<PaymentIntent[]> {
  const references = intents.map((intent) => intent.referenceId);
  const ordered = inReferenceOrder(intents);
  const { rows } = await db.query(sql.record, [
    ordered.map((intent) => intent.referenceId),
    ordered.map((intent) => intent.endpoint),
    ordered.map((intent) => JSON.stringify(intent.body)),
    ordered.map((intent) => intent.merchant ?? null),
    ordered.map((intent) => intent.recordedBy ?? null),
    ordered.map((intent) => intent.userEmail ?? null),
    ordered.map((intent) => (intent.metadata === undefined ? null : JSON.stringify(intent.metadata))),
    ordered.map((intent) => intent.sendingLeaseMs ?? null),
    ordered.map((intent) => intent.keyFingerprint ?? null),
  ]);
  const inserted = new Map((rows as RecordedRow[]).map((row) => [row.reference_id, row]));
  const found = new Map<string, PaymentIntent>();
  for (const intent of intents) {
    const row = inserted.get(intent.referenceId);
    if (row?.records === 1) found.set(intent.referenceId, insertedIntent(intent, row));
  }
  await readUnwritten(db, sql.select, references, found);
  return references.map((reference) => found.get(reference) as PaymentIntent);
}

/**
 * The SQL applying many updates by reference id; it answers the intents it changed. An intent its
 * update left as it was (its `ifState` did not hold) is read by a second statement, as is rare.
 */
export function updateBatchSql(table: string): string {
  return `UPDATE ${table} SET
    settled_by = ${settledBySql('new_state', 'new_settled_by')},
    state = ${nextStateSql('new_state')},
    transaction_id = COALESCE(new_transaction_id, transaction_id),
    transaction_status = ${finalStatusSticksSql('new_transaction_status')},
    reason = COALESCE(new_reason, reason),
    ${freeSendingLeaseSql('new_state')},
    updated_at = clock_timestamp()
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
    AS u(ref, new_state, new_transaction_id, new_transaction_status, new_reason, if_state, if_recorded_by, new_settled_by)
  WHERE reference_id = ref AND (if_state IS NULL OR state = ANY(string_to_array(if_state, ',')))
    AND (if_recorded_by IS NULL OR recorded_by = if_recorded_by)
  RETURNING ${COLUMNS}`;
}

/**
 * Applies `updates` (distinct reference ids) in one statement, in reference order; answers each
 * intent in the order of `updates`, `undefined` where none.
 */
export async function updateBatch(
  db: PostgresQueryable,
  sql: { update: string; select: string },
  updates: readonly ReferenceUpdate[],
): Promise<(PaymentIntent | undefined)[]> {
  const ordered = inReferenceOrder(updates);
  const column = (pick: (change: PaymentIntentUpdate) => string | undefined) =>
    ordered.map(({ change }) => pick(change) ?? null);
  const references = updates.map((update) => update.referenceId);
  const found = byReference(
    (
      await db.query(sql.update, [
        ordered.map((update) => update.referenceId),
        column((change) => change.state),
        column((change) => change.transactionId),
        column((change) => change.transactionStatus),
        column((change) => change.reason),
        column((change) => change.ifState?.join(',')),
        column((change) => change.ifRecordedBy),
        column((change) => change.settledBy),
      ])
    ).rows,
  );
  await readUnwritten(db, sql.select, references, found);
  return references.map((reference) => found.get(reference));
}
