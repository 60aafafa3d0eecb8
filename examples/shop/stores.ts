import type { WalletStoreConfig } from 'merchant-wallet/wallet';
import { memoryOrders, type OrderStore, postgresOrders } from './orders.js';

/** Where the shop keeps things: memory by default, PostgreSQL with DATABASE_URL, Redis with REDIS_URL. */
export interface Stores {
  /** The wallet's one store: its journal, webhook dedupe and tokens live there. */
  readonly wallet: WalletStoreConfig;
  /** The shop's own orders: PostgreSQL with DATABASE_URL, else memory. */
  readonly orders: OrderStore;
  readonly close: () => Promise<void>;
  readonly description: string;
  /** Whether tokens, intents and orders outlive the process. */
  readonly durable: boolean;
}

export async function openStores(env: NodeJS.ProcessEnv): Promise<Stores> {
  const closers: (() => Promise<unknown>)[] = [];
  let wallet: WalletStoreConfig = 'memory';
  let description = 'memory (lost on restart)';
  let orders = memoryOrders();
  // Drivers load only when configured, so a memory-only shop needs neither pg nor redis.
  if (env.DATABASE_URL) {
    const { default: pg } = await import('pg');
    const db = new pg.Pool({ connectionString: env.DATABASE_URL, max: 8 });
    closers.push(() => db.end());
    orders = await postgresOrders(db);
    wallet = { postgres: db };
    description = 'PostgreSQL';
  }
  if (env.REDIS_URL) {
    const { createClient } = await import('redis');
    const client = await createClient({ url: env.REDIS_URL }).connect();
    closers.push(() => client.close());
    wallet = { redis: client };
    description = `Redis${env.DATABASE_URL ? ', orders in PostgreSQL' : ', orders in memory'}`;
  }
  return {
    wallet,
    orders,
    description,
    durable: closers.length > 0,
    close: async () => void (await Promise.all(closers.map((close) => close()))),
  };
}
