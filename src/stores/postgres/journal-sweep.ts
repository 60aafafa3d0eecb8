/** The PostgreSQL journal's settlement and sweeper methods: leases on rows, claimed with SKIP LOCKED. */
import { checkId, checkUpdate } from '../../journal/checks.js';
import type { DueQuery, PaymentIntent, PaymentJournal, SweptUpdate } from '../../journal/types.js';
import type { WalletLogger } from '../../logger.js';
import { boundedWork, isPool } from './bounded-transaction.js';
import { GroupCommit, type GroupCommitOptions } from './group-commit.js';
import { byReference, inReferenceOrder } from './journal-batches.js';
import {
  COLUMNS,
  finalStatusSticksSql,
  freeLeaseWhenSql,
  freesSendingLeaseSql,
  nextStateSql,
  settledBySql,
  toIntent,
} from './journal-rows.js';
import type { PostgresQueryable } from './queryable.js';
import {
  type CompleteSettlement,
  type Completion,
  completeBatch,
  settleInTransaction,
} from './settlement-transaction.js';
import { DEFAULT_TRANSACTION_TIMEOUTS, type TransactionTimeouts } from './transaction-timeouts.js';

export { DEFAULT_TRANSACTION_TIMEOUTS, type TransactionTimeouts } from './transaction-timeouts.js';

const NOW = 'clock_timestamp()';
/** The states a settlement claims: a final status, or a refusal (for onRefused). */
const SETTLEABLE = `('completed', 'failed', 'refused')`;
/** The states the sweeper may have work on; the partial index of migration step 12 covers them. */
export const DUE_STATES = `('sending', 'unknown', 'accepted', 'completed', 'failed', 'refused')`;
const ms = (parameter: string) => `${parameter}::bigint * interval '1 millisecond'`;
const LEASE_FREE = `(lease_until IS NULL OR lease_until <= ${NOW})`;

/**
 * The due rule of `src/journal/due.ts` in SQL, over parameters $1 merchant, $2 grace, $3 first
 * check, $4 stuck age, $5 settle, $6 limit; rows another sweeper holds are skipped, not waited for.
 */
function dueSql(table: string): string {
  return `WITH due AS (
  SELECT reference_id AS ref FROM ${table}
  WHERE settled_at IS NULL AND state IN ${DUE_STATES} AND ${LEASE_FREE}
    AND ($1::text IS NULL OR merchant IS NULL OR merchant = $1::text)
    AND (
      (state = 'sending' AND COALESCE(next_check_at, updated_at + ${ms('$2')}) <= ${NOW})
      OR (state = 'unknown' AND COALESCE(next_check_at, updated_at) <= ${NOW})
      OR (state IN ${SETTLEABLE} AND $5::boolean)
      OR (state = 'accepted' AND transaction_id IS NOT NULL
        AND created_at + ${ms('$4')} > ${NOW}
        AND COALESCE(next_check_at, updated_at + ${ms('$3')}) <= ${NOW})
    )
  ORDER BY updated_at LIMIT $6
  FOR UPDATE SKIP LOCKED
)
UPDATE ${table} SET lease = $7, lease_until = ${NOW} + ${ms('$8')}
FROM due WHERE reference_id = due.ref
RETURNING ${COLUMNS}`;
}

/** A settlement to claim: the intent of `referenceId`, under `lease` for `leaseMs`. */
interface Claim {
  readonly referenceId: string;
  readonly lease: string;
  readonly leaseMs: number;
}

/**
 * The SQL claiming many settlements, each as `claimSettlement` claims one: an intent of a final
 * status or refused, not settled, that no lease holds. A row another transaction has locked is
 * waited for (within the lock bound), then judged again as that transaction left it.
 *
 * Each claim finds its row by its key, and the claim rule is judged on that row alone: written as
 * plain conditions, the rule matches the due index's predicate, and the generic plan made while the
 * table is small walks that index, every unsettled intent, once per claim batch (22 ms a batch at
 * 4,000 unsettled intents). Inside one `CASE`, no index can serve it.
 */
function claimBatchSql(table: string): string {
  return `UPDATE ${table} SET lease = c.new_lease, lease_until = ${NOW} + ${ms('c.lease_ms')}
FROM unnest($1::text[], $2::text[], $3::bigint[]) AS c(ref, new_lease, lease_ms)
WHERE reference_id = c.ref
  AND CASE WHEN state IN ${SETTLEABLE} AND settled_at IS NULL AND ${LEASE_FREE} THEN true ELSE false END
RETURNING ${COLUMNS}`;
}

/**
 * Claims many settlements in one statement, bounded as `run` bounds it; answers each intent this
 * call claimed, `undefined` for the others. The claims go in reference order, so two instances'
 * batches claiming the same intents lock them in one order, never in a cycle.
 */
function claimBatch(run: <T>(work: (client: PostgresQueryable) => Promise<T>) => Promise<T>, table: string) {
  const sql = claimBatchSql(table);
  return async (claims: readonly Claim[]) => {
    const ordered = inReferenceOrder(claims);
    const { rows } = await run((client) =>
      client.query(sql, [
        ordered.map((claim) => claim.referenceId),
        ordered.map((claim) => claim.lease),
        ordered.map((claim) => Math.ceil(claim.leaseMs)),
      ]),
    );
    const claimed = byReference(rows);
    return claims.map((claim) => claimed.get(claim.referenceId));
  };
}

/** A claimed intent to free, with when it is next due, and the status the sweeper read of it. */
interface Release {
  readonly referenceId: string;
  readonly lease: string;
  readonly nextCheckAt: string | undefined;
  readonly update?: SweptUpdate | undefined;
}

/**
 * The SQL freeing many claimed intents, each only while its own lease holds it, and applying to
 * those that carry one the status the sweeper read, as `updateBatchSql` of journal-batches.ts
 * applies an update (whatever the lease: a read is true even after the lease ran out). One
 * statement, so a swept pending payment costs one commit, not an update's and a release's.
 */
function releaseBatchSql(table: string): string {
  const holds = `${table}.lease = u.held_lease`;
  const updates = 'u.has_update';
  // An update that moves the intent out of `sending` frees a call's sending lease, as update() does.
  const frees = `${holds} OR (${updates} AND ${freesSendingLeaseSql('new_state')})`;
  return `UPDATE ${table} SET
    settled_by = CASE WHEN ${updates} THEN ${settledBySql('new_state', 'new_settled_by')} ELSE settled_by END,
    state = CASE WHEN ${updates} THEN ${nextStateSql('new_state')} ELSE state END,
    transaction_id = CASE WHEN ${updates} THEN COALESCE(new_transaction_id, transaction_id) ELSE transaction_id END,
    transaction_status = CASE WHEN ${updates} THEN ${finalStatusSticksSql('new_transaction_status')} ELSE transaction_status END,
    reason = CASE WHEN ${updates} THEN COALESCE(new_reason, reason) ELSE reason END,
    updated_at = CASE WHEN ${updates} THEN clock_timestamp() ELSE updated_at END,
    ${freeLeaseWhenSql(frees)},
    next_check_at = CASE WHEN ${holds} THEN u.new_next_check_at ELSE next_check_at END,
    checks = CASE WHEN ${holds} THEN checks + 1 ELSE checks END
  FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::boolean[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])
    AS u(ref, held_lease, new_next_check_at, has_update, new_state, new_transaction_id, new_transaction_status, new_reason, new_settled_by)
  WHERE reference_id = u.ref AND (u.has_update OR ${holds})`;
}

/** The SQL freeing many claimed intents, each only while its own lease holds it, and nothing else. */
function plainReleaseBatchSql(table: string): string {
  return `UPDATE ${table} SET lease = NULL, lease_until = NULL, next_check_at = u.next_check_at,
  checks = checks + 1
FROM unnest($1::text[], $2::text[], $3::timestamptz[]) AS u(ref, lease, next_check_at)
WHERE reference_id = u.ref AND ${table}.lease = u.lease`;
}

/**
 * Frees (and updates) many claimed intents in one statement, bounded as `run` bounds it; a batch
 * without a status to write takes the plain release, which plans in a fraction of the time. In
 * reference order, as claims are locked, so a release never waits in a cycle with another
 * instance's claims, updates or releases.
 */
function releaseBatch(
  run: <T>(work: (client: PostgresQueryable) => Promise<T>) => Promise<T>,
  table: string,
) {
  const sql = { plain: plainReleaseBatchSql(table), withUpdates: releaseBatchSql(table) };
  return async (releases: readonly Release[]) => {
    const ordered = inReferenceOrder(releases);
    const frees = [
      ordered.map((release) => release.referenceId),
      ordered.map((release) => release.lease),
      ordered.map((release) => release.nextCheckAt ?? null),
    ];
    const column = (pick: (update: SweptUpdate) => string | undefined) =>
      ordered.map(({ update }) => (update === undefined ? null : (pick(update) ?? null)));
    const updates = ordered.some((release) => release.update !== undefined) && [
      ordered.map((release) => release.update !== undefined),
      column((update) => update.state),
      column((update) => update.transactionId),
      column((update) => update.transactionStatus),
      column((update) => update.reason),
      column((update) => update.settledBy),
    ];
    await run((client) =>
      updates ? client.query(sql.withUpdates, [...frees, ...updates]) : client.query(sql.plain, frees),
    );
    return releases.map(() => undefined);
  };
}

/**
 * The settlement and sweeper methods, on `db` and `table`. With `grouping`, settlement claims made
 * at the same time share statements, and so commits, as records and updates do, and so do the
 * releases of one sweep's intents.
 */
export function sweepMethods(
  db: PostgresQueryable,
  table: string,
  grouping: GroupCommitOptions | false = false,
  timeouts: Required<TransactionTimeouts> = DEFAULT_TRANSACTION_TIMEOUTS,
  logger?: WalletLogger,
): Required<
  Pick<
    PaymentJournal,
    | 'claimSettlement'
    | 'completeSettlement'
    | 'claimDue'
    | 'releaseDue'
    | 'releaseDueWith'
    | 'renewSending'
    | 'now'
  >
> &
  Pick<PaymentJournal, 'settleInTransaction'> {
  const claimDue = dueSql(table);
  const bounded = boundedWork(db, timeouts, logger, 'journal write');
  const claim = claimBatch(bounded, table);
  const claims = grouping && new GroupCommit(claim, (item: Claim) => item.referenceId, grouping);
  const completeMany = completeBatch(bounded, table);
  const completions =
    grouping && new GroupCommit(completeMany, (item: Completion) => item.referenceId, grouping);
  const complete: CompleteSettlement = async (referenceId, lease) => {
    const item = { referenceId, lease };
    return completions ? completions.add(item) : ((await completeMany([item]))[0] as boolean);
  };
  const release = releaseBatch(bounded, table);
  const releases = grouping && new GroupCommit(release, (item: Release) => item.referenceId, grouping);
  return {
    ...(isPool(db)
      ? { settleInTransaction: settleInTransaction(db, table, timeouts, logger, complete) }
      : {}),
    async claimSettlement(referenceId, lease, leaseMs) {
      const item = { referenceId, lease, leaseMs };
      return claims ? claims.add(item) : (await claim([item]))[0];
    },
    completeSettlement: complete,
    async claimDue(query: DueQuery) {
      const { rows } = await db.query(claimDue, [
        query.merchant ?? null,
        Math.ceil(query.sendingGraceMs),
        Math.ceil(query.firstCheckMs),
        Math.ceil(query.stuckAfterMs),
        query.settle,
        query.limit,
        query.lease,
        Math.ceil(query.leaseMs),
      ]);
      return rows
        .map((row) => toIntent(row) as PaymentIntent)
        .sort((a, b) => Date.parse(a.updatedAt) - Date.parse(b.updatedAt));
    },
    async releaseDue(referenceId, lease, nextCheckAt) {
      const item = { referenceId, lease, nextCheckAt };
      await (releases ? releases.add(item) : release([item]));
    },
    async releaseDueWith(referenceId, lease, nextCheckAt, update) {
      checkId('referenceId', referenceId);
      checkUpdate(update);
      const item = { referenceId, lease, nextCheckAt, update };
      await (releases ? releases.add(item) : release([item]));
    },
    async renewSending(referenceId, recordedBy, leaseMs) {
      const { rowCount } = await db.query(
        `UPDATE ${table} SET lease_until = ${NOW} + ${ms('$3')}
WHERE reference_id = $1 AND lease = 'sending:' || $2::text AND state = 'sending'`,
        [referenceId, recordedBy, Math.ceil(leaseMs)],
      );
      return (rowCount ?? 0) > 0;
    },
    async now() {
      const { rows } = await db.query(`SELECT (extract(epoch FROM ${NOW}) * 1000)::float8 AS now`);
      return Number((rows[0] as { now: number | string }).now);
    },
  };
}
