import type { WalletLogger } from '../../logger.js';
import { newLease, type WebhookDedupeStore } from '../../webhooks/dedupe.js';
import { checkLogger, checkOptions, checkTtl } from '../checks.js';
import { guardShared } from '../connection-errors.js';
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
  /**
   * Where connections the server drops are reported (a warning each, naming the error); never thrown
   * at the process. Without it they are dropped silently, and the claim on them still rejects.
   */
  logger?: WalletLogger;
}

/** A {@link WebhookDedupeStore} in PostgreSQL, with {@link PostgresDedupeStore.purgeExpired} to drop old keys. */
export interface PostgresDedupeStore extends WebhookDedupeStore {
  /** Deletes expired keys and answers how many; run it from a periodic job. */
  purgeExpired(): Promise<number>;
}

/**
 * A webhook dedupe store shared by every process on one PostgreSQL database: a key is claimed under
 * a lease by `INSERT … ON CONFLICT` on its unique key, which takes the row over only once it expired;
 * completing it clears the lease and keeps the row for `ttlMs`.
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
  guardShared(db, checkLogger(options.logger), 'the dedupe pool');
  const after = (ms: string) => `clock_timestamp() + ${ms}::bigint * interval '1 millisecond'`;
  // The row as it stands when the insert lost: `lease` set means another delivery is processing it.
  const claimSql = `WITH taken AS (
  INSERT INTO ${table} AS held (key, expires_at, lease) VALUES ($1, ${after('$2')}, $3)
  ON CONFLICT (key) DO UPDATE SET expires_at = EXCLUDED.expires_at, lease = EXCLUDED.lease
  WHERE held.expires_at <= clock_timestamp()
  RETURNING key
)
SELECT true AS claimed, NULL AS lease, 0 AS remaining_ms FROM taken
UNION ALL
SELECT false, lease, GREATEST(0, ceil(extract(epoch FROM expires_at - clock_timestamp()) * 1000))::bigint
FROM ${table} WHERE key = $1 AND NOT EXISTS (SELECT 1 FROM taken)`;
  return {
    async claim(key, leaseMs) {
      const lease = newLease();
      // No row at all means the holder released it between the insert and the read: claim again.
      for (let tries = 0; tries < 3; tries++) {
        const row = (await db.query(claimSql, [key, Math.ceil(leaseMs), lease])).rows[0] as
          | { claimed: boolean; lease: string | null; remaining_ms: string | number }
          | undefined;
        if (row?.claimed) return { outcome: 'claimed', lease };
        if (row?.lease === null) return { outcome: 'duplicate' };
        if (row !== undefined) return { outcome: 'in_progress', retryAfterMs: Number(row.remaining_ms) };
      }
      return { outcome: 'in_progress', retryAfterMs: 1_000 };
    },
    async complete(key, lease) {
      await db.query(
        `UPDATE ${table} SET expires_at = ${after('$3')}, lease = NULL WHERE key = $1 AND lease = $2`,
        [key, lease, ttlMs],
      );
    },
    async release(key, lease) {
      await db.query(`DELETE FROM ${table} WHERE key = $1 AND lease = $2`, [key, lease]);
    },
    async purgeExpired() {
      const result = await db.query(`DELETE FROM ${table} WHERE expires_at <= clock_timestamp()`);
      return result.rowCount ?? 0;
    },
  };
}
