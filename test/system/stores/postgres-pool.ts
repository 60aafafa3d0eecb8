import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { migratePostgres } from '../../../src/stores/postgres/index.js';
import { started } from '../started.js';
import { type RunningServer, startPostgres } from './servers.js';

/** A PostgreSQL server and a pool on it, as {@link usePostgresPool} runs them for a test file. */
export interface PostgresPool {
  /** Where the server answers: `postgres://wallet@127.0.0.1:port/postgres`. */
  readonly url: string;
  /** A `pg.Pool` on {@link url}. */
  readonly pool: pg.Pool;
}

/** What {@link usePostgresPool} makes besides the server. */
export interface PostgresPoolOptions {
  /**
   * The pool's most connections at once.
   * @default 10 (pg's own)
   */
  readonly max?: number;
  /** The tables `migratePostgres` makes before the file's tests (`{}`: the default names); left out, nothing is migrated. */
  readonly migrate?: Parameters<typeof migratePostgres>[1];
}

/**
 * For the file that calls it: PostgreSQL on a free loopback port (see {@link startPostgres}) and a
 * `pg.Pool` on it, migrated when `migrate` is given, before the file's tests; the pool ended and the
 * server stopped after them. Call it before the file's own hooks, so they can use the pool and are
 * undone before it ends. Everything it returns is started in `beforeAll`: read it in tests and hooks only.
 */
export function usePostgresPool(options: PostgresPoolOptions = {}): PostgresPool {
  let server: RunningServer | undefined;
  let pool: pg.Pool | undefined;
  beforeAll(async () => {
    server = await startPostgres();
    pool = new pg.Pool({
      connectionString: server.url,
      ...(options.max === undefined ? {} : { max: options.max }),
    });
    if (options.migrate !== undefined) await migratePostgres(pool, options.migrate);
  });
  afterAll(async () => {
    await pool?.end();
    await server?.stop();
  });
  return {
    get url() {
      return started('usePostgresPool', 'url', server).url;
    },
    get pool() {
      return started('usePostgresPool', 'pool', pool);
    },
  };
}

/** A `pg.Pool` on `url` that keeps the text of every statement its connections send, in order. */
export function statementRecordingPool(url: string, max = 4): { pool: pg.Pool; sent: string[] } {
  const pool = new pg.Pool({ connectionString: url, max });
  const sent: string[] = [];
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((...args: unknown[]) => {
      const [first] = args;
      sent.push(typeof first === 'string' ? first : String((first as { text?: unknown }).text));
      return query(...args);
    }) as typeof client.query;
  });
  return { pool, sent };
}
