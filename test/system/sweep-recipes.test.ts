import pg from 'pg';
import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sweepWithBullMQ } from '../../examples/recipes/bullmq.js';
import { SWEEP_QUEUE, sweepWithPgBoss } from '../../examples/recipes/pg-boss.js';
import { createMemoryJournal, type PaymentJournal, WalletClient } from '../../src/index.js';
import { createPostgresJournal, migratePostgres } from '../../src/stores/postgres/index.js';
import {
  createSandbox,
  type Sandbox,
  type SandboxServer,
  startSandboxServer,
} from '../../src/testing/index.js';
import { type RunningServer, startPostgres, startRedis } from './stores/servers.js';

let sandbox: Sandbox;
let server: SandboxServer;
let postgres: RunningServer;
let redis: RunningServer;
let pool: pg.Pool;

beforeAll(async () => {
  sandbox = createSandbox();
  server = await startSandboxServer({ sandbox, port: 0 });
  [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  pool = new pg.Pool({ connectionString: postgres.url, max: 8 });
  await migratePostgres(pool);
});

afterAll(async () => {
  await pool?.end();
  await Promise.all([postgres?.stop(), redis?.stop()]);
  sandbox?.close();
  await server?.close();
});

/** A client whose journal holds one withdrawal left `unknown` (its answer was lost), and what it settles. */
async function walletWithUnknown(journal: PaymentJournal) {
  const settled: string[] = [];
  const wallet = new WalletClient({
    apiKey: 'sk_sandbox_demo_shop',
    baseUrl: server.baseUrl,
    journal,
    onSettled: (intent) => void settled.push(intent.referenceId),
  });
  const referenceId = `recipe-${crypto.randomUUID()}`;
  const body = { reference_id: referenceId, email: 'alice@example.com', amount: 3, currency: 'KES' };
  await journal.record({ referenceId, endpoint: 'withdraw', body, merchant: wallet.merchant });
  await journal.update(referenceId, { state: 'unknown', reason: 'the answer was lost' });
  return { wallet, referenceId, settled };
}

async function until(check: () => Promise<boolean> | boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the sweep');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('job-engine recipes call sweepOnce', () => {
  test('pg-boss: a scheduled sweep job settles an intent left unknown, once', async () => {
    const journal = createPostgresJournal({ db: pool });
    const { wallet, referenceId, settled } = await walletWithUnknown(journal);
    const boss = new PgBoss({ connectionString: postgres.url, schema: 'recipe_boss' });
    boss.on('error', () => {});
    await boss.start();
    try {
      await sweepWithPgBoss(boss, wallet);
      expect((await boss.getSchedules()).map((schedule) => schedule.name)).toContain(SWEEP_QUEUE);
      // The cron schedule fires each minute; a job sent now runs the same worker at once.
      await boss.send(SWEEP_QUEUE, {});
      await until(() => settled.includes(referenceId));
      expect(await journal.get(referenceId)).toMatchObject({
        state: 'completed',
        transactionStatus: 'completed',
      });
      expect(sandbox.transactions().filter((tx) => tx.reference_id === referenceId)).toHaveLength(1);
      expect(settled.filter((reference) => reference === referenceId)).toHaveLength(1);
    } finally {
      await boss.stop({ graceful: false, wait: true });
      await wallet.close();
    }
  });

  test('BullMQ: a job scheduler sweeps every interval and settles an intent left unknown, once', async () => {
    const journal = createMemoryJournal();
    const { wallet, referenceId, settled } = await walletWithUnknown(journal);
    const { port } = new URL(redis.url);
    const { queue, worker } = await sweepWithBullMQ({ host: '127.0.0.1', port: Number(port) }, wallet, 200);
    try {
      await until(() => settled.includes(referenceId));
      expect(await journal.get(referenceId)).toMatchObject({
        state: 'completed',
        transactionStatus: 'completed',
      });
      expect(sandbox.transactions().filter((tx) => tx.reference_id === referenceId)).toHaveLength(1);
      expect(await queue.getJobSchedulers()).toHaveLength(1);
    } finally {
      await worker.close();
      await queue.close();
      await wallet.close();
    }
  });
});
