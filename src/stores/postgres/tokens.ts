import { checkTokenStoreWrite, type TokenStore } from '../../auth/token-store.js';
import type { WalletLogger } from '../../logger.js';
import { checkLogger, checkOptions } from '../checks.js';
import { guardShared } from '../connection-errors.js';
import { checkQueryable, checkTable, type PostgresQueryable } from './queryable.js';
import { DEFAULT_TOKEN_TABLE } from './schema.js';

/** Options of {@link createPostgresTokenStore}. */
export interface PostgresTokenStoreOptions {
  /** A `pg` Pool (or client) on the database where {@link migratePostgres} created the table. */
  db: PostgresQueryable;
  /**
   * The table.
   * @default 'merchant_wallet_tokens'
   */
  table?: string;
  /**
   * Where connections the server drops are reported (a warning each, naming the error); never thrown
   * at the process. Without it they are dropped silently, and the call on them still rejects.
   */
  logger?: WalletLogger;
}

/** A token store in PostgreSQL, with {@link PostgresTokenStore.purgeExpired} to drop expired rows. */
export interface PostgresTokenStore extends TokenStore {
  /** Deletes expired login states and authorization notes and answers how many; run it from a periodic job. */
  purgeExpired(): Promise<number>;
}

const LIVE = '(expires_at IS NULL OR expires_at > clock_timestamp())';
const EXPIRES = `CASE WHEN $3::bigint IS NULL THEN NULL ELSE clock_timestamp() + $3::bigint * interval '1 millisecond' END`;

/**
 * The token vault's store in PostgreSQL, shared by every instance: one row per key, changed only by
 * single conditional statements (compare-and-set on the stored value), so concurrent writers never
 * overwrite each other. Rows hold ciphertexts, login states and authorization notes, never a
 * plaintext token.
 *
 * @example
 * const store = createPostgresTokenStore({ db: pool });
 * const vault = createTokenVault({ store, keys: { primary: 'k1', keys: { k1: process.env.TOKEN_KEY_K1 } }, appId: 'app_demo_shop' });
 * @throws {WalletConfigError} naming the option at fault.
 */
export function createPostgresTokenStore(options: PostgresTokenStoreOptions): PostgresTokenStore {
  checkOptions('createPostgresTokenStore', options);
  const db = checkQueryable('db', options.db);
  const table = checkTable('table', options.table ?? DEFAULT_TOKEN_TABLE);
  // An idle connection of the pool that the server ends reports it on the pool: never to the process.
  guardShared(db, checkLogger(options.logger), 'the token store pool');
  const ttl = (ttlMs: number | undefined) => (ttlMs === undefined ? null : Math.ceil(ttlMs));
  const changed = async (sql: string, params: unknown[]) => ((await db.query(sql, params)).rowCount ?? 0) > 0;
  return {
    async get(key) {
      const { rows } = await db.query(`SELECT value FROM ${table} WHERE key = $1 AND ${LIVE}`, [key]);
      return (rows[0] as { value: string } | undefined)?.value;
    },
    async compareAndSet(key, expected, value, ttlMs) {
      checkTokenStoreWrite(key, value);
      if (expected === undefined && value === undefined) {
        await db.query(`DELETE FROM ${table} WHERE key = $1 AND NOT ${LIVE}`, [key]);
        return (await this.get(key)) === undefined;
      }
      if (expected === undefined) {
        return changed(
          `INSERT INTO ${table} AS held (key, value, expires_at) VALUES ($1, $2, ${EXPIRES})
ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at
WHERE held.expires_at IS NOT NULL AND held.expires_at <= clock_timestamp()`,
          [key, value, ttl(ttlMs)],
        );
      }
      if (value === undefined) {
        return changed(`DELETE FROM ${table} WHERE key = $1 AND value = $2 AND ${LIVE}`, [key, expected]);
      }
      return changed(
        `UPDATE ${table} SET value = $4, expires_at = ${EXPIRES} WHERE key = $1 AND value = $2 AND ${LIVE}`,
        [key, expected, ttl(ttlMs), value],
      );
    },
    async scan(prefix, after, limit) {
      const { rows } = await db.query(
        `SELECT key, value FROM ${table}
WHERE starts_with(key, $1) AND ($2::text IS NULL OR key > $2) AND ${LIVE}
ORDER BY key LIMIT $3`,
        [prefix, after ?? null, limit],
      );
      return rows as Array<{ key: string; value: string }>;
    },
    async purgeExpired() {
      const result = await db.query(`DELETE FROM ${table} WHERE NOT ${LIVE}`);
      return result.rowCount ?? 0;
    },
  };
}
