import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sweepWithBullMQ } from '../../examples/recipes/bullmq.js';
import { SWEEP_QUEUE, sweepWithPgBoss } from '../../examples/recipes/pg-boss.js';
import { createMemoryJournal, type PaymentJournal, WalletClient } from '../../src/index.js';
import { createPostgresJournal } from '../../src/stores/postgres/index.js';
import { useSandboxServer } from './sandbox-server.js';
import { usePostgresPool } from './stores/postgres-pool.js';
import { type RunningServer, startRedis } from './stores/servers.js';

const served = useSandboxServer();
const postgres = usePostgresPool({ max: 8, migrate: {} });
let redis: RunningServer;

beforeAll(async () => {
  redis = await startRedis();
});

afterAll(async () => {
  await redis?.stop();
});

/** A client whose journal holds one withdrawal left `unknown` (its answer was lost), and what it settles. */
async function walletWithUnknown(journal: PaymentJournal) {
  const settled: string[] = [];
  const wallet = new WalletClient({
    apiKey: 'sk_sandbox_demo_shop',
    baseUrl: served.baseUrl,
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
    const journal = createPostgresJournal({ db: postgres.pool });
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
      expect(served.sandbox.transactions().filter((tx) => tx.reference_id === referenceId)).toHaveLength(1);
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
      expect(served.sandbox.transactions().filter((tx) => tx.reference_id === referenceId)).toHaveLength(1);
      expect(await queue.getJobSchedulers()).toHaveLength(1);
    } finally {
      await worker.close();
      await queue.close();
      await wallet.close();
    }
  });
});
