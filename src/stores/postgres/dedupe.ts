import type { WebhookDedupeStore } from '../../webhooks/dedupe.js';
import { checkOptions, checkTtl } from '../checks.js';
import { checkQueryable, checkTable, type PostgresQueryable } from './queryable.js';
import { DEFAULT_DEDUPE_TABLE } from './schema.js';

/** Options of {@link createPostgresDedupeStore}. */
export interface PostgresDedupeStoreOptions {
  /** A `pg` Pool (or client) on the database where {@link migratePostgres} created the table. */
  db: PostgresQueryable;
  /** How long a processed event's key is kept, in milliseconds; keep it longer than the sender's redelivery window. */
  ttlMs: number;
  /**
   * The table.
   * @default 'merchant_wallet_webhook_dedupe'
   */
  table?: string;
}

/** A {@link WebhookDedupeStore} in PostgreSQL, with {@link PostgresDedupeStore.purgeExpired} to drop old keys. */
export interface PostgresDedupeStore extends WebhookDedupeStore {
  /** Deletes expired keys and answers how many; run it from a periodic job. */
  purgeExpired(): Promise<number>;
}

/**
 * A webhook dedupe store shared by every process on one PostgreSQL database: a key is claimed by
 * `INSERT … ON CONFLICT` on its unique key, which takes the row over only once it expired.
 *
 * @example
 * const dedupe = createPostgresDedupeStore({ db: pool, ttlMs: 7 * 24 * 3600_000 });
 * const handler = createWebhookHandler({ onTransaction, dedupe });
 * @throws {WalletConfigError} naming the option at fault.
 */
export function createPostgresDedupeStore(options: PostgresDedupeStoreOptions): PostgresDedupeStore {
  checkOptions('createPostgresDedupeStore', options);
  const db = checkQueryable('db', options.db);
  const ttlMs = checkTtl('ttlMs', options.ttlMs);
  const table = checkTable('table', options.table ?? DEFAULT_DEDUPE_TABLE);
  const claimSql = `INSERT INTO ${table} AS held (key, expires_at)
VALUES ($1, clock_timestamp() + $2::bigint * interval '1 millisecond')
ON CONFLICT (key) DO UPDATE SET expires_at = EXCLUDED.expires_at WHERE held.expires_at <= clock_timestamp()
RETURNING key`;
  return {
    async claim(key) {
      const result = await db.query(claimSql, [key, ttlMs]);
      return result.rowCount === 1;
    },
    async release(key) {
      await db.query(`DELETE FROM ${table} WHERE key = $1`, [key]);
    },
    async purgeExpired() {
      const result = await db.query(`DELETE FROM ${table} WHERE expires_at <= clock_timestamp()`);
      return result.rowCount ?? 0;
    },
  };
}
