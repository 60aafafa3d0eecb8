/**
 * The sweeper on PostgreSQL (fsync on): pending deposits recorded in the journal, then swept with
 * `sweepOnce` until none is due, each read back from the sandbox; due intents claimed and read per second.
 */
import pg from 'pg';
import type * as Package from '../src/index.js';
import type * as Postgres from '../src/stores/postgres/index.js';
import type * as Testing from '../src/testing/index.js';
import { startPostgres } from '../test/system/stores/servers.js';

const dist = (entry: string) => new URL(`../dist/${entry}.js`, import.meta.url).href;
const { WalletClient }: typeof Package = await import(dist('index'));
const { createPostgresJournal, migratePostgres }: typeof Postgres = await import(dist('postgres'));

const PENDING = 4_000;
const CONCURRENCY = 64;

/** Due intents claimed and read back per second by `sweepOnce` on PostgreSQL. */
export async function measureSweep(): Promise<number> {
  const { createSandbox, startSandboxServer }: typeof Testing = await import(dist('testing'));
  const sandbox = createSandbox();
  const server = await startSandboxServer({ sandbox, port: 0 });
  const postgres = await startPostgres({ durable: true });
  const pool = new pg.Pool({ connectionString: postgres.url, max: 16 });
  try {
    await migratePostgres(pool);
    const wallet = new WalletClient({
      apiKey: 'sk_sandbox_demo_shop',
      baseUrl: server.baseUrl,
      maxSockets: CONCURRENCY,
      journal: createPostgresJournal({ db: pool }),
    });
    let next = 0;
    const deposit = async () => {
      while (next < PENDING) {
        const n = next++;
        // Bob's wallet cannot cover it, so each waits on his mpesa account: pending.
        const body = { reference_id: `sweep-${n}`, amount: 900, currency: 'KES', payment_provider: 'mpesa' };
        await wallet.deposit(body, { userToken: 'tok_sandbox_bob' });
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, deposit));
    // Each is first due a second after its deposit, and next 2 s after its first read.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    let swept = 0;
    const started = performance.now();
    while (swept < PENDING) {
      const report = await wallet.sweepOnce({ firstCheckMs: 1_000, limit: 500, concurrency: 32 });
      if (report.claimed === 0) break;
      swept += report.claimed;
    }
    const perSecond = swept / ((performance.now() - started) / 1000);
    await wallet.close();
    if (swept !== PENDING) throw new Error(`swept ${swept} of ${PENDING} pending deposits`);
    return perSecond;
  } finally {
    await pool.end();
    await postgres.stop();
    sandbox.close();
    await server.close();
  }
}
