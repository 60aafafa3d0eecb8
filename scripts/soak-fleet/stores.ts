/** The journal and dedupe store of a fleet-soak process: PostgreSQL, or Redis when REDIS_URL is set. */
import type pg from 'pg';
import { createClient } from 'redis';
import type { PaymentJournal, WebhookDedupeStore } from '../../src/index.js';
import { createPostgresDedupeStore, createPostgresJournal } from '../../src/stores/postgres/index.js';
import { createRedisDedupeStore, createRedisJournal } from '../../src/stores/redis/index.js';

export async function fleetStores(
  pool: pg.Pool,
  redisUrl: string | undefined,
): Promise<{ journal: PaymentJournal; dedupe: WebhookDedupeStore; close(): Promise<void> }> {
  if (redisUrl === undefined || redisUrl === '') {
    return {
      journal: createPostgresJournal({ db: pool }),
      dedupe: createPostgresDedupeStore({ db: pool, ttlMs: 3_600_000 }),
      close: async () => {},
    };
  }
  const client = await createClient({ url: redisUrl }).connect();
  return {
    journal: createRedisJournal({ client }),
    dedupe: createRedisDedupeStore({ client, ttlMs: 3_600_000 }),
    close: async () => {
      await client.close();
    },
  };
}
