/**
 * The journal's own writes on a `pg` Pool, bounded on the server, so a paused or partitioned
 * instance blocks the others at most that long. The settlement transaction sets statement, lock and
 * idle-in-transaction timeouts with `BEGIN` and `SET LOCAL` in one round trip. A group-commit
 * statement needs no transaction of its own: on a `pg` connection it runs with its statement and
 * lock bounds in one round trip (bounded-statement.ts), and elsewhere in such a transaction.
 *
 * A bound on the server holds only while the server answers. A connection that goes silent (a
 * half-open socket after a failover or a partition, a backend that stopped) would hold its write,
 * and every write grouped behind it, until the system gives up on the socket, minutes later; so a
 * statement on a `pg` connection unanswered {@link ANSWER_MARGIN_MS} past its statement bound fails,
 * and its connection is destroyed rather than returned to the pool.
 */
import type { WalletLogger } from '../../logger.js';
import { guardConnection } from '../connection-errors.js';
import { boundedStatements, preparedStatementsOf } from './bounded-statement.js';
import type { PostgresQueryable } from './queryable.js';
import type { TransactionTimeouts } from './transaction-timeouts.js';

/**
 * How long past its statement bound a statement may go unanswered before its connection is taken
 * for dead: the bound itself is the server's, and the answer still has to cross the network.
 */
export const ANSWER_MARGIN_MS = 5_000;

/**
 * `answer`, or a rejection once `statementMs` and {@link ANSWER_MARGIN_MS} have passed without it,
 * after `onSilent` (which destroys the connection); a `statementMs` of 0 turns the bound off, and
 * the wait with it.
 */
function answeredWithin<T>(answer: Promise<T>, statementMs: number, onSilent: () => void): Promise<T> {
  if (statementMs === 0) return answer;
  const waitMs = statementMs + ANSWER_MARGIN_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const silent = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onSilent();
      reject(
        new Error(
          `PostgreSQL did not answer a journal statement within ${waitMs} ms, its statement bound and ${ANSWER_MARGIN_MS} ms more: its connection was taken for dead and closed`,
        ),
      );
    }, waitMs);
  });
  return Promise.race([answer, silent]).finally(() => clearTimeout(timer));
}

/** A `pg` Pool: it lends a client of its own for a transaction. */
export interface PostgresPool extends PostgresQueryable {
  connect(): Promise<PostgresQueryable & { release(destroy?: boolean): void }>;
  readonly idleCount: number;
}

/** Whether `db` is a pool, which lends a connection per transaction (a single client cannot). */
export const isPool = (db: PostgresQueryable): db is PostgresPool =>
  typeof (db as Partial<PostgresPool>).connect === 'function' &&
  typeof (db as PostgresPool).idleCount === 'number';

/** `BEGIN` and the bounds, one round trip (a simple query of several statements). */
export function beginSql(timeouts: Required<TransactionTimeouts>): string {
  return `BEGIN; SET LOCAL statement_timeout = ${timeouts.statementMs}; SET LOCAL lock_timeout = ${timeouts.lockMs}; SET LOCAL idle_in_transaction_session_timeout = ${timeouts.idleInTransactionMs}`;
}

/**
 * Runs `work` on a connection of `pool`, each of its statements bounded by `timeouts`: on its own,
 * in one round trip, as a prepared statement where the pool allows, on a `pg` connection (see
 * bounded-statement.ts); else all of them in one
 * transaction, rolled back when `work` fails, and the connection destroyed when it cannot even roll
 * back. A connection the server drops meanwhile is logged as `what`, never thrown at the process;
 * one that stops answering is destroyed once the statement's bound and {@link ANSWER_MARGIN_MS} have
 * passed, and the work fails.
 */
export async function inBoundedWork<T>(
  pool: PostgresPool,
  timeouts: Required<TransactionTimeouts>,
  logger: WalletLogger | undefined,
  what: string,
  work: (client: PostgresQueryable) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  guardConnection(client, logger, what);
  const statements = boundedStatements(client, timeouts, preparedStatementsOf(pool), logger);
  let broken = false;
  try {
    if (statements !== undefined) {
      return await answeredWithin(work(statements), timeouts.statementMs, () => {
        broken = true;
      });
    }
    await client.query(beginSql(timeouts));
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    if (statements === undefined)
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
    throw error;
  } finally {
    client.release(broken);
  }
}

/**
 * `work` bounded on a pool (see {@link inBoundedWork}); on a single client, which may be inside the
 * merchant's own transaction, as it is.
 */
export function boundedWork(
  db: PostgresQueryable,
  timeouts: Required<TransactionTimeouts>,
  logger: WalletLogger | undefined,
  what: string,
): <T>(work: (client: PostgresQueryable) => Promise<T>) => Promise<T> {
  return isPool(db) ? (work) => inBoundedWork(db, timeouts, logger, what, work) : (work) => work(db);
}
