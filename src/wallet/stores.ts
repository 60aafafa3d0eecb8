import { createMemoryTokenStore } from '../auth/memory-store.js';
import type { TokenStore } from '../auth/token-store.js';
import { WalletConfigError } from '../errors.js';
import { createMemoryJournal } from '../journal/memory.js';
import type { PaymentJournal } from '../journal/types.js';
import type { WalletLogger } from '../logger.js';
import { createPostgresDedupeStore } from '../stores/postgres/dedupe.js';
import { createPostgresJournal } from '../stores/postgres/journal.js';
import { migratePostgres } from '../stores/postgres/schema.js';
import { createPostgresTokenStore } from '../stores/postgres/tokens.js';
import { createRedisDedupeStore } from '../stores/redis/dedupe.js';
import { createRedisJournal } from '../stores/redis/journal.js';
import { createRedisTokenStore } from '../stores/redis/tokens.js';
import { createMemoryDedupeStore, type WebhookDedupeStore } from '../webhooks/dedupe.js';
import type { WalletStoreConfig } from './config.js';

/** The stores of one wallet, on one backing store, and what `start()` runs before anything else. */
export interface WalletStores {
  /** `memory`, `postgres` or `redis`. */
  readonly kind: 'memory' | 'postgres' | 'redis';
  readonly journal: PaymentJournal;
  readonly dedupe: WebhookDedupeStore;
  readonly tokens: TokenStore;
  /** Brings the store's schema to the current version (PostgreSQL); nothing elsewhere. */
  readonly migrate: () => Promise<void>;
}

/** Processed webhook keys are kept a week: longer than any sender's retry schedule. */
export const DEFAULT_DEDUPE_TTL_MS = 7 * 24 * 3_600_000;

const nothing = async () => undefined;

/**
 * Builds the journal, dedupe store and token store on one backing store. The store adapters take
 * structural driver types, so no database driver is loaded here.
 *
 * @throws {WalletConfigError} naming `store` when it is none of the three forms.
 */
export function openStores(
  store: WalletStoreConfig | undefined,
  dedupeTtlMs: number,
  logger?: WalletLogger | undefined,
): WalletStores {
  const logs = logger === undefined ? {} : { logger };
  if (store === undefined || store === 'memory') {
    return {
      kind: 'memory',
      journal: createMemoryJournal(),
      dedupe: createMemoryDedupeStore({ ttlMs: dedupeTtlMs }),
      tokens: createMemoryTokenStore(),
      migrate: nothing,
    };
  }
  if (typeof store === 'object' && store !== null && 'postgres' in store) {
    const { postgres: db, tables = {}, groupCommit } = store;
    return {
      kind: 'postgres',
      journal: createPostgresJournal({
        db,
        ...(tables.journalTable && { table: tables.journalTable }),
        ...(groupCommit !== undefined && { groupCommit }),
        ...logs,
      }),
      dedupe: createPostgresDedupeStore({
        db,
        ttlMs: dedupeTtlMs,
        ...(tables.dedupeTable && { table: tables.dedupeTable }),
        ...logs,
      }),
      tokens: createPostgresTokenStore({
        db,
        ...(tables.tokenTable && { table: tables.tokenTable }),
        ...logs,
      }),
      migrate: () => migratePostgres(db, tables),
    };
  }
  if (typeof store === 'object' && store !== null && 'redis' in store) {
    const { redis: client } = store;
    return {
      kind: 'redis',
      journal: createRedisJournal({ client, ...logs }),
      dedupe: createRedisDedupeStore({ client, ttlMs: dedupeTtlMs, ...logs }),
      tokens: createRedisTokenStore({ client, ...logs }),
      migrate: nothing,
    };
  }
  throw new WalletConfigError('store', "must be 'memory', { postgres: pool } or { redis: client }");
}
