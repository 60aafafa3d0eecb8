/**
 * One journal statement bounded on the server in one round trip. A `BEGIN` and `SET LOCAL` before
 * the statement and a `COMMIT` after it cost three round trips for one grouped write; this sends the
 * bounds and the statement as one pipeline of the extended protocol, ended by one Sync:
 *
 * - `SELECT set_config('statement_timeout', $1, true), set_config('lock_timeout', $2, true)`, then
 *   the statement with its own bind parameters. Messages before a Sync run in one implicit
 *   transaction, so both settings are local to it: they bound this statement and end with it, and
 *   never reach the merchant's other queries on the same pooled connection.
 * - PostgreSQL (13 and later) starts a fresh statement timer at each message after an Execute, with
 *   the setting then in force, so the statement runs under `statementMs`; a lock wait reads
 *   `lock_timeout` when it begins, so the statement waits at most `lockMs` for a row lock.
 * - The implicit transaction commits at the Sync, once the statement succeeded, and rolls back whole
 *   when it fails: the write is as atomic as in its own transaction. It never sits open between
 *   round trips, so it needs no idle-in-transaction bound.
 *
 * The pipeline is a `pg` Query whose preparation sends the bounds first; the Query class is the one
 * of the connection's own `pg`, so no copy of the driver is loaded here. A connection that is not
 * `pg`'s (another driver, a test double) has none, and runs the bounded transaction instead.
 */
import type { PostgresQueryable, PostgresQueryResult } from './queryable.js';
import type { TransactionTimeouts } from './transaction-timeouts.js';

/** The bounds, as settings local to the implicit transaction the statement runs in. */
export const BOUNDS_SQL = `SELECT set_config('statement_timeout', $1, true), set_config('lock_timeout', $2, true)`;

/** What a `pg` connection offers a query preparing itself (pg/lib/connection.js). */
interface PgConnection {
  parse(config: { text: string; name: string; types: unknown[] }): void;
  bind(config: { portal: string; statement: string; values: readonly string[] }): void;
  execute(config: { portal: string; rows: number }): void;
}

/** What this needs of a `pg` Query (pg/lib/query.js): the steps it overrides. */
interface PgQuery {
  requiresPreparation(): boolean;
  prepare(connection: PgConnection): void;
  handleDataRow(message: unknown): void;
  handleCommandComplete(message: unknown, connection: PgConnection): void;
}

type QueryCallback = (error: Error | null, result: PostgresQueryResult) => void;

/** A `pg` Query class: `Client.Query`. */
type PgQueryClass = new (text: string, values: unknown[], callback: QueryCallback) => PgQuery;

/** A bounded query class: a `pg` Query class whose queries send the bounds first. */
type BoundedQueryClass = new (
  bounds: readonly string[],
  text: string,
  values: unknown[],
  callback: QueryCallback,
) => PgQuery;

/** One bounded class per `pg` Query class (a process may load more than one copy of `pg`). */
const boundedClasses = new WeakMap<PgQueryClass, BoundedQueryClass>();

function boundedQueryClass(Query: PgQueryClass): BoundedQueryClass {
  const known = boundedClasses.get(Query);
  if (known !== undefined) return known;
  class BoundedQuery extends Query {
    readonly #bounds: readonly string[];
    /** Whether the bounds statement has completed: its row and completion are not the result. */
    #bounded = false;

    constructor(bounds: readonly string[], text: string, values: unknown[], callback: QueryCallback) {
      super(text, values, callback);
      this.#bounds = bounds;
    }

    // Even a statement without parameters goes through the extended protocol, the bounds first.
    override requiresPreparation(): boolean {
      return true;
    }

    override prepare(connection: PgConnection): void {
      connection.parse({ text: BOUNDS_SQL, name: '', types: [] });
      connection.bind({ portal: '', statement: '', values: this.#bounds });
      connection.execute({ portal: '', rows: 0 });
      super.prepare(connection);
    }

    override handleDataRow(message: unknown): void {
      if (this.#bounded) super.handleDataRow(message);
    }

    override handleCommandComplete(message: unknown, connection: PgConnection): void {
      if (this.#bounded) super.handleCommandComplete(message, connection);
      else this.#bounded = true;
    }
  }
  boundedClasses.set(Query, BoundedQuery);
  return BoundedQuery;
}

/** The `pg` Query class of `client`, when it is a `pg` client whose queries can be pipelined so. */
function queryClassOf(client: PostgresQueryable): PgQueryClass | undefined {
  const Query = (client.constructor as { Query?: unknown } | undefined)?.Query;
  if (typeof Query !== 'function') return undefined;
  const prototype = (Query as { prototype?: Partial<PgQuery> }).prototype;
  return typeof prototype?.prepare === 'function' &&
    typeof prototype.requiresPreparation === 'function' &&
    typeof prototype.handleDataRow === 'function' &&
    typeof prototype.handleCommandComplete === 'function'
    ? (Query as PgQueryClass)
    : undefined;
}

/**
 * `client` as a queryable whose every statement runs on its own, bounded by `timeouts` in the same
 * round trip; `undefined` when `client` is not a `pg` client (see the file's comment).
 */
export function boundedStatements(
  client: PostgresQueryable,
  timeouts: Required<TransactionTimeouts>,
): PostgresQueryable | undefined {
  const Query = queryClassOf(client);
  if (Query === undefined) return undefined;
  const BoundedQuery = boundedQueryClass(Query);
  const bounds = [String(timeouts.statementMs), String(timeouts.lockMs)];
  return {
    query: (text, values = []) =>
      new Promise<PostgresQueryResult>((resolve, reject) => {
        // `pg` takes a query object as it is and answers through its callback.
        client.query(
          new BoundedQuery(bounds, text, values, (error, result) => {
            if (error === null) resolve(result);
            else reject(error);
          }) as never,
        );
      }),
  };
}
