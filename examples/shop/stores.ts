import {
  createMemoryDedupeStore,
  createMemoryJournal,
  createMemoryTokenStore,
  type PaymentJournal,
  type TokenStore,
  type WebhookDedupeStore,
} from 'merchant-wallet';
import { memoryOrders, type OrderStore, postgresOrders } from './orders.js';

/** Where the shop keeps things: memory by default, PostgreSQL with DATABASE_URL, Redis with REDIS_URL. */
export interface Stores {
  readonly journal: PaymentJournal;
  readonly dedupe: WebhookDedupeStore;
  readonly tokens: TokenStore;
  readonly orders: OrderStore;
  readonly close: () => Promise<void>;
  readonly description: string;
  /** Whether tokens, intents and orders outlive the process. */
  readonly durable: boolean;
}

/** How long a processed webhook is remembered: longer than the service goes on redelivering. */
const WEEK = 7 * 24 * 3_600_000;

export async function openStores(env: NodeJS.ProcessEnv): Promise<Stores> {
  const closers: (() => Promise<unknown>)[] = [];
  let stores: Omit<Stores, 'close' | 'orders' | 'durable'> = {
    journal: createMemoryJournal(),
    dedupe: createMemoryDedupeStore(),
    tokens: createMemoryTokenStore(),
    description: 'memory (lost on restart)',
  };
  let orders = memoryOrders();
  // Drivers load only when configured, so a memory-only shop needs neither pg nor redis.
  if (env.DATABASE_URL) {
    const { default: pg } = await import('pg');
    const postgres = await import('merchant-wallet/postgres');
    const db = new pg.Pool({ connectionString: env.DATABASE_URL, max: 8 });
    closers.push(() => db.end());
    await postgres.migratePostgres(db);
    orders = await postgresOrders(db);
    stores = {
      journal: postgres.createPostgresJournal({ db }),
      dedupe: postgres.createPostgresDedupeStore({ db, ttlMs: WEEK }),
      tokens: postgres.createPostgresTokenStore({ db }),
      description: 'PostgreSQL',
    };
  }
  if (env.REDIS_URL) {
    const { createClient } = await import('redis');
    const redisStores = await import('merchant-wallet/redis');
    const client = await createClient({ url: env.REDIS_URL }).connect();
    closers.push(() => client.close());
    stores = {
      journal: redisStores.createRedisJournal({ client }),
      dedupe: redisStores.createRedisDedupeStore({ client, ttlMs: WEEK }),
      tokens: redisStores.createRedisTokenStore({ client }),
      description: `Redis${env.DATABASE_URL ? ', orders in PostgreSQL' : ', orders in memory'}`,
    };
  }
  return {
    ...stores,
    orders,
    durable: closers.length > 0,
    close: async () => void (await Promise.all(closers.map((close) => close()))),
  };
}
