/**
 * Settlement on PostgreSQL across instances: two instances, each with its own pool and journal on
 * one table, with and without group commit, settle the same payments at once, many times over, as a
 * call's answer, a webhook and a status read do; each instance's callbacks write through their
 * settlement transaction, or write nothing through it. Each payment that ended runs its callback
 * exactly once and is settled, with one fulfilment row when the instance that ran it wrote one; one
 * that has not ended is never claimed.
 */
import fc from 'fast-check';
import pg from 'pg';
import { expect, test } from 'vitest';
import type { SettlementTransaction } from '../../../src/index.js';
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

test('two instances settling the same payments at once run each ended payment’s callback exactly once, its fulfilment committed once', async () => {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.tuple(...REFERENCES.map(() => payment)),
      fc.boolean(),
      fc.tuple(fc.boolean(), fc.boolean()),
      async (payments, grouped, writes) => {
        run += 1;
        const table = `settlement_claims_${run}`;
        const fulfilments = `settlement_claims_fulfilments_${run}`;
        await migratePostgres(postgres.pool, {
          journalTable: table,
          dedupeTable: `settlement_claims_dedupe_${run}`,
        });
        await postgres.pool.query(`CREATE TABLE ${fulfilments} (reference_id text, status text)`);
        const second = new pg.Pool({ connectionString: postgres.url, max: 2 });
        const callbacks = new Map<string, string[]>();
        const ranBy = new Map<string, number>();
        const insert = `INSERT INTO ${fulfilments} (reference_id, status) VALUES ($1, $2)`;
        const instances = [postgres.pool, second].map((db, instance): Settlement => {
          const done = async (referenceId: string, what: string, transaction?: SettlementTransaction) => {
            callbacks.set(referenceId, [...(callbacks.get(referenceId) ?? []), what]);
            ranBy.set(referenceId, instance);
            if (writes[instance]) await transaction?.query(insert, [referenceId, what]);
          };
          return {
            journal: createPostgresJournal({ db, table, ...(grouped ? {} : { groupCommit: false }) }),
            leaseMs: 60_000,
            logger: undefined,
            onSettled: (intent, status, { transaction }) => done(intent.referenceId, status, transaction),
            onRefused: (intent, { transaction }) => done(intent.referenceId, 'refused', transaction),
          };
        });
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
            const rows = await postgres.pool.query(
              `SELECT status FROM ${fulfilments} WHERE reference_id = $1`,
              [referenceId],
            );
            const wrote = settled && writes[ranBy.get(referenceId) as number];
            expect([referenceId, rows.rows]).toEqual([referenceId, wrote ? [{ status: end }] : []]);
          }
        } finally {
          await second.end();
        }
      },
    ),
    { numRuns: 40 },
  );
}, 180_000);
