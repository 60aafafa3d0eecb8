/**
 * A PostgreSQL record answers an intent it inserted from what was passed and what the database set,
 * without reading the row back: that answer must be, field for field, the intent `get` reads. An
 * intent that existed is read back whole, with its count of records.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import type { NewPaymentIntent } from '../../../src/journal/types.js';
import { createPostgresJournal, migratePostgres } from '../../../src/stores/postgres/index.js';
import { usePostgresPool } from './postgres-pool.js';

const postgres = usePostgresPool({ max: 4 });
let tables = 0;

async function freshJournal(groupCommit: false | undefined) {
  tables += 1;
  const table = `record_answer_${tables}`;
  await migratePostgres(postgres.pool, {
    journalTable: table,
    dedupeTable: `record_answer_dedupe_${tables}`,
  });
  return createPostgresJournal({
    db: postgres.pool,
    table,
    ...(groupCommit === false ? { groupCommit } : {}),
  });
}

const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });

/** New intents with every optional field present or absent, and bodies of any JSON object. */
const newIntent = fc.record({
  endpoint: fc.constantFrom('deposit' as const, 'withdraw' as const),
  body: fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string(), fc.integer(), fc.boolean()), {
    noNullPrototype: true,
  }),
  merchant: optional(fc.constantFrom('shop-a', 'shop-b')),
  recordedBy: optional(fc.constantFrom('instance-1', 'instance-2')),
  userEmail: optional(fc.emailAddress()),
  metadata: optional(
    fc.dictionary(fc.string({ minLength: 1, maxLength: 10 }), fc.string({ maxLength: 20 }), {
      noNullPrototype: true,
    }),
  ),
  sendingLeaseMs: optional(fc.integer({ min: 1, max: 60_000 })),
  keyFingerprint: optional(fc.stringMatching(/^[0-9a-f]{8}$/)),
});

for (const grouping of [undefined, false] as const) {
  const how = grouping === false ? 'one statement per write' : 'group commit';
  test(`${how}: a fresh record answers the intent get() reads, field for field`, async () => {
    const journal = await freshJournal(grouping);
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(newIntent, { minLength: 1, maxLength: 6 }), async (batch) => {
        const intents: NewPaymentIntent[] = batch.map((fields) => ({
          ...fields,
          referenceId: `order-${n++}`,
        }));
        // Concurrent records share one statement under group commit.
        const answers = await Promise.all(intents.map((intent) => journal.record(intent)));
        for (const [index, answer] of answers.entries()) {
          const stored = await journal.get(intents[index]!.referenceId);
          expect(answer).toStrictEqual(stored);
          expect(answer.records).toBe(1);
          expect(answer.state).toBe('sending');
        }
      }),
      { numRuns: 25 },
    );
  }, 60_000);

  test(`${how}: recording an existing intent answers it as stored, one record more`, async () => {
    const journal = await freshJournal(grouping);
    const intent = { referenceId: 'order-1', endpoint: 'deposit', body: { amount: 5 } } as const;
    await journal.record(intent);
    await journal.update('order-1', {
      state: 'accepted',
      transactionId: 't-1',
      transactionStatus: 'pending',
    });
    const [again, fresh] = await Promise.all([
      journal.record({ ...intent, body: { amount: 9 } }),
      journal.record({ referenceId: 'order-2', endpoint: 'withdraw', body: {} }),
    ]);
    expect(again).toStrictEqual(await journal.get('order-1'));
    expect(again).toMatchObject({ records: 2, state: 'accepted', transactionId: 't-1', body: { amount: 5 } });
    expect(fresh).toStrictEqual(await journal.get('order-2'));
  }, 30_000);
}
