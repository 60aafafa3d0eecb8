import type { WalletLogger } from '../../logger.js';
import { guardConnection, guardShared } from '../connection-errors.js';
import type { PostgresQueryable } from './queryable.js';

/** A NOTIFY as `pg` delivers it on a LISTENing connection. */
export interface PostgresNotification {
  /** The channel it was sent on. */
  readonly channel: string;
  /** The message; `pg` leaves it out when empty. */
  readonly payload?: string | undefined;
}

/** What the transaction-event source needs of a `pg` client that LISTENs: a `pg.Client` or `PoolClient` fits. */
export interface PostgresListenClient extends PostgresQueryable {
  /** Adds a listener for `notification`, `error` and `end`. */
  on(event: string, listener: (...args: never[]) => void): unknown;
}

/**
 * A `pg.Pool` to take the LISTEN session from: the source checks out one client and keeps it, so
 * the pool must reach PostgreSQL directly or through session pooling.
 */
export interface PostgresListenPool extends PostgresQueryable {
  /** Checks out a client, held until it is released. */
  connect(): Promise<PostgresPooledListenClient>;
}

/** A client checked out of a {@link PostgresListenPool}: a `pg` `PoolClient`. */
export interface PostgresPooledListenClient extends PostgresListenClient {
  /** Hands the client back to its pool; with `true` (or an error) the pool closes it instead. */
  release(destroy?: boolean | Error): void;
}

/** One open LISTEN connection and how to let it go. */
export interface ListenSession {
  readonly client: PostgresListenClient;
  /** Closes the connection (a pool's client is destroyed, never handed back still listening). */
  dispose(): Promise<void>;
}

/** Opens a new LISTEN connection each time it is called. */
export type OpenListenSession = () => Promise<ListenSession>;

/** Sessions checked out of `pool`, each destroyed when done with: a pooled connection must not keep listening. */
export function poolSessions(pool: PostgresListenPool, logger?: WalletLogger): OpenListenSession {
  // A session handed back (destroyed) reports its drop through the pool.
  guardShared(pool, logger, 'the LISTEN pool');
  return async () => {
    const client = await pool.connect();
    guardConnection(client, logger, 'LISTEN session');
    return { client, dispose: async () => client.release(true) };
  };
}

interface PgModule {
  Client: new (config: {
    connectionString: string;
    keepAlive: boolean;
  }) => PostgresListenClient & {
    connect(): Promise<void>;
    end(): Promise<void>;
  };
}

/**
 * Sessions on connections of their own to `connectionString`. `pg` is loaded on the first one, so the
 * entry never loads it for adapters that are handed a pool. TCP keepalive finds a dead peer on a
 * connection that otherwise only ever waits.
 */
export function connectionStringSessions(connectionString: string): OpenListenSession {
  return async () => {
    const loaded = (await import('pg')) as unknown as PgModule & { default?: PgModule };
    const { Client } = loaded.default ?? loaded;
    const client = new Client({ connectionString, keepAlive: true });
    // An error before the source's own listener is on must not crash the process; connect() rejects
    // with it, and a drop after is reported by the source itself.
    client.on('error', () => undefined);
    const dispose = () => client.end().catch(() => undefined);
    try {
      await client.connect();
    } catch (error) {
      await dispose();
      throw error;
    }
    return { client, dispose };
  };
}
