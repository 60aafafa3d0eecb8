/**
 * The settlement transaction `onSettled` and `onRefused` run in, on a `pg` Pool. It begins with the
 * callback's first statement through `context.transaction`: a callback that writes nothing through
 * it costs no transaction of its own, and its settlement is marked by a grouped statement, sharing a
 * durable commit with the settlements made at the same time.
 */
import { WalletConfigError } from '../../errors.js';
import type { PaymentJournal, SettlementTransaction } from '../../journal/types.js';
import type { WalletLogger } from '../../logger.js';
import { guardConnection } from '../connection-errors.js';
import { beginSql, type PostgresPool } from './bounded-transaction.js';
import { inReferenceOrder } from './journal-batches.js';
import type { PostgresQueryable } from './queryable.js';
import type { TransactionTimeouts } from './transaction-timeouts.js';

/** A connection the pool lent, to be given back (destroyed when it cannot even roll back). */
type LentClient = Awaited<ReturnType<PostgresPool['connect']>>;

/** Marks `referenceId` settled when `lease` still holds it, outside any transaction; answers whether it did. */
export type CompleteSettlement = (referenceId: string, lease: string) => Promise<boolean>;

/** A claimed settlement to mark settled, while `lease` still holds it. */
export interface Completion {
  readonly referenceId: string;
  readonly lease: string;
}

/**
 * The SQL marking settled each intent of `$1` (reference ids) that the lease of the same place in
 * `$2` still holds and nobody settled; it answers the reference ids it marked.
 */
function markSettledSql(table: string): string {
  return `UPDATE ${table} SET settled_at = clock_timestamp(), lease = NULL, lease_until = NULL
FROM unnest($1::text[], $2::text[]) AS c(ref, held_lease)
WHERE reference_id = c.ref AND ${table}.lease = c.held_lease AND settled_at IS NULL
RETURNING reference_id`;
}

/**
 * Marks many claimed settlements settled in one statement, each only while its own lease holds it,
 * bounded as `run` bounds it; answers whether each was. In reference order, as claims are locked.
 */
export function completeBatch(
  run: <T>(work: (client: PostgresQueryable) => Promise<T>) => Promise<T>,
  table: string,
) {
  const sql = markSettledSql(table);
  return async (completions: readonly Completion[]) => {
    const ordered = inReferenceOrder(completions);
    const { rows } = await run((client) =>
      client.query(sql, [ordered.map((item) => item.referenceId), ordered.map((item) => item.lease)]),
    );
    const settled = new Set(rows.map((row) => (row as { reference_id: string }).reference_id));
    return completions.map((item) => settled.has(item.referenceId));
  };
}

const USED_AFTER_RETURN =
  'was used after the callback returned; await every statement of onSettled and onRefused before returning';

/**
 * A transaction begun on its first statement. `end()` refuses every later statement and answers the
 * connection it runs on, or `undefined` when no statement was made.
 */
function lazyTransaction(open: () => Promise<LentClient>) {
  let client: Promise<LentClient> | undefined;
  let over = false;
  const transaction: SettlementTransaction = {
    query(text, values) {
      if (over) return Promise.reject(new WalletConfigError('context.transaction', USED_AFTER_RETURN));
      client ??= open();
      return client.then((lent) => lent.query(text, values));
    },
  };
  return {
    transaction,
    end(): Promise<LentClient> | undefined {
      over = true;
      return client;
    },
  };
}

/** Lends a connection inside `BEGIN` and the bounds; one the server refuses is destroyed, not lent again. */
async function begun(pool: PostgresPool, begin: string, logger: WalletLogger | undefined) {
  const client = await pool.connect();
  guardConnection(client, logger, 'settlement transaction');
  try {
    await client.query(begin);
  } catch (error) {
    client.release(true);
    throw error;
  }
  return client;
}

/**
 * `settleInTransaction` on a pool: the work, then the settlement under the lease. When the work made
 * a statement through its transaction, the settlement is marked in that transaction, bounded by
 * `timeouts`, so both commit or neither; else `complete` marks it. Nothing is locked while the work
 * runs; if another instance took the lease meanwhile, the final update finds nothing and the
 * transaction rolls back, so of all runs exactly one commits. A connection the server drops
 * meanwhile is logged, never thrown at the process; the settlement fails and its lease brings it back.
 */
export function settleInTransaction(
  pool: PostgresPool,
  table: string,
  timeouts: Required<TransactionTimeouts>,
  logger: WalletLogger | undefined,
  complete: CompleteSettlement,
): NonNullable<PaymentJournal['settleInTransaction']> {
  const begin = beginSql(timeouts);
  const markSettled = markSettledSql(table);
  return async (referenceId, lease, work) => {
    const lazy = lazyTransaction(() => begun(pool, begin, logger));
    let failure: { error: unknown } | undefined;
    try {
      await work(lazy.transaction);
    } catch (error) {
      failure = { error };
    }
    const opened = lazy.end();
    if (opened === undefined) {
      if (failure) throw failure.error;
      return complete(referenceId, lease);
    }
    const client = await opened.catch((error: unknown) => {
      throw failure ? failure.error : error;
    });
    let broken = false;
    try {
      if (failure) throw failure.error;
      const { rows } = await client.query(markSettled, [[referenceId], [lease]]);
      await client.query(rows.length > 0 ? 'COMMIT' : 'ROLLBACK');
      return rows.length > 0;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      throw error;
    } finally {
      client.release(broken);
    }
  };
}
