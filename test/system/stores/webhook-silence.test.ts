import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { PaymentJournal } from '../../../src/index.js';
import { createPostgresJournal, migratePostgres } from '../../../src/stores/postgres/index.js';
import { createRedisJournal } from '../../../src/stores/redis/index.js';
import { checkSettledBy, updateArbitrary } from '../../journal/settled-by-model.js';
import { runSilenceScenario, type SilenceRun } from '../../settlement/silence-scenario.js';
import { usePostgresPool } from './postgres-pool.js';
import { useRedisClients } from './redis-clients.js';

const postgres = usePostgresPool({ max: 8 });
const redis = useRedisClients();

function expectAlarmFiresAndClears(run: SilenceRun): void {
  expect(run.quiet.alarms).toEqual([]);
  expect(run.afterSweeps).toEqual(Array(3).fill({ state: 'completed', settledBy: 'sweeper' }));
  expect(run.dropped.alarms).toEqual(['webhooks_silent']);
  expect(run.restoredBy).toBe('webhook');
  expect(run.restored.alarms).toEqual([]);
}

describe('webhooks_silent on real stores', () => {
  test('PostgreSQL (after the settled_by migration): fires within two sweeps while payments settle, clears once webhooks return', async () => {
    await migratePostgres(postgres.pool, { journalTable: 'silence_journal', dedupeTable: 'silence_dedupe' });
    const columns = await postgres.pool.query(
      "SELECT column_name FROM information_schema.columns WHERE table_name = 'silence_journal' AND column_name = 'settled_by'",
    );
    expect(columns.rowCount).toBe(1);
    expectAlarmFiresAndClears(
      await runSilenceScenario(createPostgresJournal({ db: postgres.pool, table: 'silence_journal' })),
    );
  }, 60_000);

  test('Redis: fires within two sweeps while payments settle, clears once webhooks return', async () => {
    expectAlarmFiresAndClears(
      await runSilenceScenario(createRedisJournal({ client: redis.nodeRedis, prefix: 'silence:' })),
    );
  }, 60_000);
});

/** Concurrent updates from every path against a real store: the settling update's path is kept, never changed. */
async function settledByUnderConcurrency(journal: PaymentJournal): Promise<void> {
  await fc.assert(
    fc.asyncProperty(
      fc.array(updateArbitrary, { minLength: 1, maxLength: 8 }),
      fc.array(updateArbitrary, { maxLength: 4 }),
      async (first, later) => {
        const problem = await checkSettledBy(journal, first, later, async (writes) => {
          await Promise.all(writes.map((write) => write()));
        });
        expect(problem).toBeUndefined();
      },
    ),
    { numRuns: 60 },
  );
}

describe('settledBy under concurrent updates on real stores', () => {
  test('PostgreSQL', async () => {
    await migratePostgres(postgres.pool, {
      journalTable: 'settled_by_journal',
      dedupeTable: 'settled_by_dedupe',
    });
    await settledByUnderConcurrency(
      createPostgresJournal({ db: postgres.pool, table: 'settled_by_journal' }),
    );
  }, 60_000);

  test('Redis', async () => {
    await settledByUnderConcurrency(createRedisJournal({ client: redis.nodeRedis, prefix: 'settled-by:' }));
  }, 60_000);
});
