/**
 * Journal overhead: withdrawals against the sandbox at concurrency 64, without a journal and with
 * each journal, in one run side by side (rounds interleaved, medians), on servers as production
 * runs them: PostgreSQL with fsync on, Redis with `appendfsync everysec`.
 */
import pg from 'pg';
import { createClient } from 'redis';
import type * as Package from '../src/index.js';
import type * as Postgres from '../src/stores/postgres/index.js';
import type * as Redis from '../src/stores/redis/index.js';
import type * as Testing from '../src/testing/index.js';
import { startPostgres, startRedis } from '../test/system/stores/servers.js';

const dist = (entry: string) => new URL(`../dist/${entry}.js`, import.meta.url).href;
const { WalletClient, createMemoryJournal }: typeof Package = await import(dist('index'));
const { createPostgresJournal, migratePostgres }: typeof Postgres = await import(dist('postgres'));
const { createRedisJournal }: typeof Redis = await import(dist('redis'));
const { createSandbox, startSandboxServer }: typeof Testing = await import(dist('testing'));

const PAYMENTS = 2_000;
const CONCURRENCY = 64;
const ROUNDS = 3;

/** Payments per second of each journal, and each one's ratio to no journal. */
export interface JournalOverhead {
  readonly perSecond: Readonly<Record<string, number>>;
  readonly memoryRatio: number;
  readonly redisRatio: number;
  readonly postgresRatio: number;
}

type Journal = Package.PaymentJournal | undefined;

async function paymentsPerSecond(baseUrl: string, journal: Journal, round: string): Promise<number> {
  const wallet = new WalletClient({
    apiKey: 'sk_sandbox_demo_shop',
    baseUrl,
    maxSockets: CONCURRENCY,
    ...(journal ? { journal } : {}),
  });
  let next = 0;
  const worker = async () => {
    while (next < PAYMENTS) {
      const n = next++;
      await wallet.withdraw({
        reference_id: `${round}-${n}`,
        email: 'bob@example.com',
        amount: 1,
        currency: 'KES',
      });
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - started) / 1000;
  await wallet.close();
  return PAYMENTS / seconds;
}

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** Measures the four set-ups, interleaved round by round so drift of a shared machine hits each alike. */
export async function measureJournalOverhead(): Promise<JournalOverhead> {
  // 24,000 withdrawals of 1 KES in all: the demo shop's seed balance covers them.
  const sandbox = createSandbox();
  const server = await startSandboxServer({ sandbox, port: 0 });
  const postgres = await startPostgres({ durable: true });
  const redis = await startRedis({ durable: true });
  const pool = new pg.Pool({ connectionString: postgres.url, max: 16 });
  const redisClient = await createClient({ url: redis.url }).connect();
  try {
    await migratePostgres(pool);
    const journals: Record<string, () => Journal> = {
      none: () => undefined,
      memory: () => createMemoryJournal(),
      redis: () => createRedisJournal({ client: redisClient }),
      postgres: () => createPostgresJournal({ db: pool }),
    };
    const figures: Record<string, number[]> = { none: [], memory: [], redis: [], postgres: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, make] of Object.entries(journals)) {
        figures[name]?.push(await paymentsPerSecond(server.baseUrl, make(), `bench-${name}-${round}`));
      }
    }
    const perSecond = Object.fromEntries(
      Object.entries(figures).map(([name, values]) => [name, median(values)]),
    );
    const ratio = (name: string) =>
      median((figures[name] ?? []).map((value, n) => value / (figures.none?.[n] ?? 1)));
    return {
      perSecond,
      memoryRatio: ratio('memory'),
      redisRatio: ratio('redis'),
      postgresRatio: ratio('postgres'),
    };
  } finally {
    await redisClient.close();
    await pool.end();
    await redis.stop();
    await postgres.stop();
    sandbox.close();
    await server.close();
  }
}

/** The table of payments per second, for the bench's report. */
export function journalTable(overhead: JournalOverhead): string {
  const none = overhead.perSecond.none ?? 1;
  return Object.entries(overhead.perSecond)
    .map(
      ([name, value]) =>
        `${name.padEnd(10)} ${value.toFixed(0).padStart(8)} payments/s  ${(value / none).toFixed(2)}×\n`,
    )
    .join('');
}
