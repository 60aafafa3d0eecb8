/**
 * The sweeper on PostgreSQL (fsync on): pending deposits recorded in the journal, then swept with
 * `sweepOnce` until none is due, each read back from the sandbox; due intents claimed and read per
 * second, the median of rounds. The sandbox runs in a process of its own, as a real service does: in
 * the bench's process its HTTP server's work would be counted as the sweeper's.
 */
import pg from 'pg';
import type * as Package from '../src/index.js';
import type * as Postgres from '../src/stores/postgres/index.js';
import { startPostgres } from '../test/system/stores/servers.js';
import { startSandboxProcess, stopSandboxProcess } from './sandbox-process-control.js';
import { median } from './throughput.js';

const dist = (entry: string) => new URL(`../dist/${entry}.js`, import.meta.url).href;
const { WalletClient }: typeof Package = await import(dist('index'));
const { createPostgresJournal, migratePostgres }: typeof Postgres = await import(dist('postgres'));

const PENDING = 4_000;
const CONCURRENCY = 64;
const ROUNDS = 3;

/** Due intents claimed and read back per second by `sweepOnce` on PostgreSQL, median of rounds. */
export async function measureSweep(): Promise<number> {
  const sandbox = await startSandboxProcess(0);
  const postgres = await startPostgres({ durable: true });
  const pool = new pg.Pool({ connectionString: postgres.url, max: 16 });
  try {
    const rounds: number[] = [];
    // Each round on a table of its own, so no round sweeps what an earlier one left pending.
    for (let round = 0; round < ROUNDS; round++) {
      const table = `sweep_bench_${round}`;
      await migratePostgres(pool, { journalTable: table });
      const journal = createPostgresJournal({ db: pool, table });
      rounds.push(await sweepRound(sandbox.baseUrl, journal, `sweep-${round}`));
    }
    return median(rounds);
  } finally {
    await pool.end();
    await postgres.stop();
    await stopSandboxProcess(sandbox);
  }
}

/**
 * Records `PENDING` pending deposits (reference ids `<prefix>-<n>`), then sweeps them all once;
 * answers claims per second.
 */
async function sweepRound(baseUrl: string, journal: Package.PaymentJournal, prefix: string): Promise<number> {
  const wallet = new WalletClient({
    apiKey: 'sk_sandbox_demo_shop',
    baseUrl,
    maxSockets: CONCURRENCY,
    journal,
  });
  try {
    let next = 0;
    const deposit = async () => {
      while (next < PENDING) {
        const n = next++;
        // Bob's wallet cannot cover it, so each waits on his mpesa account: pending.
        const body = {
          reference_id: `${prefix}-${n}`,
          amount: 900,
          currency: 'KES',
          payment_provider: 'mpesa',
        };
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
    if (swept !== PENDING) throw new Error(`swept ${swept} of ${PENDING} pending deposits`);
    return perSecond;
  } finally {
    await wallet.close();
  }
}
