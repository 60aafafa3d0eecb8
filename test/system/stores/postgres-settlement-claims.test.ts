/**
 * Settlement on PostgreSQL across instances: two instances, each with its own pool and journal on
 * one table, with and without group commit, settle the same payments at once, many times over, as a
 * call's answer, a webhook and a status read do. Each payment that ended runs its callback exactly
 * once and is settled; one that has not ended is never claimed.
 */
import fc from 'fast-check';
import pg from 'pg';
import { expect, test } from 'vitest';
import { type Settlement, settle } from '../../../src/settlement/settle.js';
import { createPostgresJournal, migratePostgres } from '../../../src/stores/postgres/index.js';
import { usePostgresPool } from './postgres-pool.js';

const postgres = usePostgresPool({ max: 2 });

const REFERENCES = ['ref-a', 'ref-b', 'ref-c', 'ref-d'];
type End = 'completed' | 'failed' | 'refused';

/** Each payment's end (none: still sending) and how many times each of the two instances settles it. */
const payment = fc.record({
  end: fc.option(fc.constantFrom<End>('completed', 'failed', 'refused'), { nil: undefined }),
  settles: fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 })),
});

test('two instances settling the same payments at once run each ended payment’s callback exactly once', async () => {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(fc.tuple(...REFERENCES.map(() => payment)), fc.boolean(), async (payments, grouped) => {
      run += 1;
      const table = `settlement_claims_${run}`;
      await migratePostgres(postgres.pool, {
        journalTable: table,
        dedupeTable: `settlement_claims_dedupe_${run}`,
      });
      const second = new pg.Pool({ connectionString: postgres.url, max: 2 });
      const callbacks = new Map<string, string[]>();
      const done = (referenceId: string, what: string) =>
        callbacks.set(referenceId, [...(callbacks.get(referenceId) ?? []), what]);
      const instances = [postgres.pool, second].map(
        (db): Settlement => ({
          journal: createPostgresJournal({ db, table, ...(grouped ? {} : { groupCommit: false }) }),
          leaseMs: 60_000,
          logger: undefined,
          onSettled: async (intent, status) => void done(intent.referenceId, status),
          onRefused: async (intent) => void done(intent.referenceId, 'refused'),
        }),
      );
      const [one] = instances as [Settlement, Settlement];
      try {
        for (const [n, { end }] of payments.entries()) {
          const referenceId = REFERENCES[n] as string;
          await one.journal.record({ referenceId, endpoint: 'withdraw', body: {} });
          if (end !== undefined)
            await one.journal.update(
              referenceId,
              end === 'refused'
                ? { state: 'refused', reason: 'insufficient_balance' }
                : { state: end, transactionId: `tx-${referenceId}`, transactionStatus: end },
            );
        }
        await Promise.all(
          payments.flatMap(({ settles }, n) =>
            settles.flatMap((times, instance) =>
              Array.from({ length: times }, () =>
                settle(instances[instance] as Settlement, REFERENCES[n] as string),
              ),
            ),
          ),
        );
        for (const [n, { end, settles }] of payments.entries()) {
          const referenceId = REFERENCES[n] as string;
          const settled = end !== undefined && settles[0] + settles[1] > 0;
          expect([referenceId, callbacks.get(referenceId)]).toEqual([
            referenceId,
            settled ? [end] : undefined,
          ]);
          expect((await one.journal.get(referenceId))?.settledAt !== undefined).toBe(settled);
        }
      } finally {
        await second.end();
      }
    }),
    { numRuns: 40 },
  );
}, 180_000);
