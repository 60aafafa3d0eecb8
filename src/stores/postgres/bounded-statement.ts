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
 *
 * The statement is a named prepared statement (`merchant_wallet_` and a hash of its text), parsed
 * once per connection and run with a generic plan that finds each row by its key (planner settings
 * local as the bounds are, {@link NAMED_PLAN_SETTINGS}): the journal's few statements never change,
 * and parsing, analysing and planning them took about a third of PostgreSQL's CPU per payment. A
 * pooler that moves a session's statements between server connections (PgBouncer in transaction
 * mode without `max_prepared_statements`) answers "does not exist" or "already exists" before the
 * statement runs, as does a migration that changed a column it answers; the write is then sent
 * again unnamed, and so is every later one on that pool (see {@link PreparedStatements}).
 */
import type { WalletLogger } from '../../logger.js';
import type { PostgresQueryable, PostgresQueryResult } from './queryable.js';
import type { TransactionTimeouts } from './transaction-timeouts.js';

/** The bounds, as settings local to the implicit transaction the statement runs in. */
export const BOUNDS_SQL = `SELECT set_config('statement_timeout', $1, true), set_config('lock_timeout', $2, true)`;

/**
 * The planner settings a named statement runs under, local as {@link BOUNDS_SQL}'s: a generic plan,
 * made on the statement's first run on a connection and kept, and no way to it but finding each row
 * by its key. Made on a table still empty, the cheapest join of a batch's keys with the table is a
 * hash join over a sequential scan, which a grown table then pays in full on every batch, until an
 * `ANALYZE` happens to replan it. With sequential scans, hash joins and merge joins off, the plan
 * left probes the primary key once per row, the right plan at every size of the table.
 */
const NAMED_PLAN_SETTINGS = [
  ['plan_cache_mode', 'force_generic_plan'],
  ['enable_seqscan', 'off'],
  ['enable_hashjoin', 'off'],
  ['enable_mergejoin', 'off'],
] as const;

/** The bounds of a named statement, with its {@link NAMED_PLAN_SETTINGS}. */
const NAMED_BOUNDS_SQL = [
  BOUNDS_SQL,
  ...NAMED_PLAN_SETTINGS.map(([name, value]) => `set_config('${name}', '${value}', true)`),
].join(', ');

/**
 * Whether `error` is what a server answers, before running anything, to a named statement it cannot
 * run as prepared: a pooler lost it (`26000`, it does not exist on this server connection) or shared
 * it (`42P05`, another client's already does), or a migration changed a column it answers (`0A000`,
 * its cached plan may not change its result type).
 */
function refusedAsPrepared(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    code === '26000' ||
    code === '42P05' ||
    (code === '0A000' && typeof message === 'string' && message.includes('must not change result type'))
  );
}

/** The names of the statements met so far: the journal's few texts, each hashed once. */
const statementNames = new Map<string, string>();

/** The name of `text`'s prepared statement: the same on every connection and process. */
export function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    // Two 32-bit hashes: two of the journal's texts sharing a name would fail on one connection.
    let low = 0;
    let high = 0;
    for (let i = 0; i < text.length; i++) {
      low = (Math.imul(low, 31) + text.charCodeAt(i)) | 0;
      high = (Math.imul(high, 131) + text.charCodeAt(i)) | 0;
    }
    name = `merchant_wallet_${(high >>> 0).toString(36)}${(low >>> 0).toString(36)}_${text.length}`;
    statementNames.set(text, name);
  }
  return name;
}

/**
 * Whether a pool's journal statements are named: yes until a server refuses one (see the file's
 * comment), then never again on that pool, said once as a warning.
 */
export interface PreparedStatements {
  named: boolean;
}

const preparedByPool = new WeakMap<object, PreparedStatements>();

/** The {@link PreparedStatements} of `pool`, shared by every store on it. */
export function preparedStatementsOf(pool: object): PreparedStatements {
  let prepared = preparedByPool.get(pool);
  if (prepared === undefined) {
    prepared = { named: true };
    preparedByPool.set(pool, prepared);
  }
  return prepared;
}

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
  named: boolean,
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
    readonly #boundsSql: string;
    /** Whether the bounds statement has completed: its row and completion are not the result. */
    #bounded = false;

    constructor(
      bounds: readonly string[],
      named: boolean,
      text: string,
      values: unknown[],
      callback: QueryCallback,
    ) {
      // `pg` parses a named statement once per connection and binds it by name after.
      super((named ? { text, name: statementName(text) } : text) as never, values, callback);
      this.#bounds = bounds;
      this.#boundsSql = named ? NAMED_BOUNDS_SQL : BOUNDS_SQL;
    }

    // Even a statement without parameters goes through the extended protocol, the bounds first.
    override requiresPreparation(): boolean {
      return true;
    }

    override prepare(connection: PgConnection): void {
      connection.parse({ text: this.#boundsSql, name: '', types: [] });
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
 * round trip, named while `prepared` says so; `undefined` when `client` is not a `pg` client (see
 * the file's comment).
 */
export function boundedStatements(
  client: PostgresQueryable,
  timeouts: Required<TransactionTimeouts>,
  prepared: PreparedStatements,
  logger: WalletLogger | undefined,
): PostgresQueryable | undefined {
  const Query = queryClassOf(client);
  if (Query === undefined) return undefined;
  const BoundedQuery = boundedQueryClass(Query);
  const bounds = [String(timeouts.statementMs), String(timeouts.lockMs)];
  const run = (named: boolean, text: string, values: unknown[]) =>
    new Promise<PostgresQueryResult>((resolve, reject) => {
      // `pg` takes a query object as it is and answers through its callback.
      client.query(
        new BoundedQuery(bounds, named, text, values, (error, result) => {
          if (error === null) resolve(result);
          else reject(error);
        }) as never,
      );
    });
  return {
    query: async (text, values = []) => {
      if (!prepared.named) return run(false, text, values);
      try {
        return await run(true, text, values);
      } catch (error) {
        if (!refusedAsPrepared(error)) throw error;
        // Refused before it ran, and its implicit transaction rolled back: nothing was written, so
        // the same statement goes again, unnamed.
        if (prepared.named) {
          prepared.named = false;
          logger?.warn?.(
            'PostgreSQL refused a prepared statement (a pooler in transaction mode, or a migration): the journal sends its statements unnamed on this pool from now on',
            { code: (error as { code: string }).code },
          );
        }
        return run(false, text, values);
      }
    },
  };
}
