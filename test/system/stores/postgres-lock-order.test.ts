/**
 * Two instances' grouped writes of the same rows on PostgreSQL never deadlock. A third session holds
 * row A while the second instance's batch of A, B queues on it, then the first instance's batch of
 * B, A. Once A is free, the second batch takes it and wants B: locked in arrival order, the first
 * batch would hold B while it waits on A, a cycle PostgreSQL ends by failing one batch (40P01).
 * Locked in reference order, both wait on A, and every write of both lands.
 */
import pg from 'pg';
import { expect, test } from 'vitest';
import type { PaymentJournal } from '../../../src/index.js';
import { createPostgresJournal, migratePostgres } from '../../../src/stores/postgres/index.js';
import { usePostgresPool } from './postgres-pool.js';

const postgres = usePostgresPool({ max: 4 });

const LEASE = 'sweep-1';
const nextCheckAt = () => new Date(Date.now() + 60_000).toISOString();

/** A grouped write of one row; answers the reference id of the intent it answered, if it answers one. */
type Write = (journal: PaymentJournal, referenceId: string) => Promise<string | undefined>;

const writes: Record<string, Write> = {
  records: async (journal, referenceId) =>
    (await journal.record({ referenceId, endpoint: 'withdraw', body: {} })).referenceId,
  'outcome updates': async (journal, referenceId) =>
    (
      await journal.update(referenceId, {
        state: 'accepted',
        transactionId: `tx-${referenceId}`,
        transactionStatus: 'pending',
      })
    )?.referenceId,
  'sweeper releases': async (journal, referenceId) => {
    await journal.releaseDue?.(referenceId, LEASE, nextCheckAt());
    return undefined;
  },
  'sweeper releases with a status': async (journal, referenceId) => {
    await journal.releaseDueWith?.(referenceId, LEASE, nextCheckAt(), { reason: 'checked' });
    return undefined;
  },
};

/** What a write came to: the reference id it answered (`undefined` for a release), or its error's SQLSTATE. */
const outcomeOf = (outcome: PromiseSettledResult<string | undefined>) =>
  outcome.status === 'fulfilled'
    ? { answered: outcome.value }
    : { failed: (outcome.reason as { code?: unknown }).code ?? String(outcome.reason) };

let tables = 0;

/** A fresh table holding the intents `ref-a` and `ref-b`, both under the sweeper's lease. */
async function tableOfTwo(): Promise<string> {
  tables += 1;
  const table = `lock_order_${tables}`;
  await migratePostgres(postgres.pool, { journalTable: table, dedupeTable: `lock_order_dedupe_${tables}` });
  const journal = createPostgresJournal({ db: postgres.pool, table });
  for (const referenceId of ['ref-a', 'ref-b'])
    await journal.record({ referenceId, endpoint: 'withdraw', body: {} });
  await postgres.pool.query(
    `UPDATE ${table} SET lease = $1, lease_until = clock_timestamp() + interval '1 hour'`,
    [LEASE],
  );
  return table;
}

/** Resolves once `count` sessions wait on a lock. */
async function lockWaiters(count: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { rows } = await postgres.pool.query(
      `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE wait_event_type = 'Lock'`,
    );
    if ((rows[0] as { waiting: number }).waiting >= count) return;
    if (Date.now() > deadline) throw new Error(`${count} sessions never waited on a lock`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

for (const [kind, write] of Object.entries(writes)) {
  test(`two instances’ batched ${kind} of rows A and B, added in opposite orders, both land`, async () => {
    const table = await tableOfTwo();
    const second = new pg.Pool({ connectionString: postgres.url, max: 4 });
    const holder = new pg.Client({ connectionString: postgres.url });
    await holder.connect();
    try {
      const one = createPostgresJournal({ db: postgres.pool, table });
      const two = createPostgresJournal({ db: second, table });
      await holder.query('BEGIN');
      await holder.query(`SELECT 1 FROM ${table} WHERE reference_id = 'ref-a' FOR UPDATE`);
      // The second instance's batch of A, B waits on A first, so it is first in line for it.
      const secondBatch = Promise.allSettled([write(two, 'ref-a'), write(two, 'ref-b')]);
      await lockWaiters(1);
      // The first instance's batch of B, A: in arrival order it would lock B, then wait on A.
      const firstBatch = Promise.allSettled([write(one, 'ref-b'), write(one, 'ref-a')]);
      await lockWaiters(2);
      await holder.query('COMMIT');
      const outcomes = (await Promise.all([firstBatch, secondBatch])).flat().map(outcomeOf);
      // Each caller gets its own row's answer, whatever order the statement locked the rows in.
      const answers = ['ref-b', 'ref-a', 'ref-a', 'ref-b'].map((referenceId) => ({
        answered: kind.includes('release') ? undefined : referenceId,
      }));
      expect(outcomes).toEqual(answers);
    } finally {
      await holder.end();
      await second.end();
    }
  }, 30_000);
}
