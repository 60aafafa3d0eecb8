/**
 * A value PostgreSQL refuses fails only the journal write carrying it: three records or outcome
 * updates made at once share one statement, one of them carrying U+0000 (which neither a text nor a
 * jsonb takes); that one fails with the server's data error, and the other two land.
 */
import { expect, test } from 'vitest';
import type { NewPaymentIntent } from '../../../src/index.js';
import { createPostgresJournal, migratePostgres } from '../../../src/stores/postgres/index.js';
import { statementRecordingPool, usePostgresPool } from './postgres-pool.js';

const postgres = usePostgresPool();

let tables = 0;

/** A journal on a fresh table, through a pool that keeps the text of every statement it sends. */
async function watchedJournal() {
  tables += 1;
  const table = `data_errors_${tables}`;
  await migratePostgres(postgres.pool, { journalTable: table, dedupeTable: `data_errors_dedupe_${tables}` });
  const { pool, sent } = statementRecordingPool(postgres.url);
  const journal = createPostgresJournal({ db: pool, table });
  const statements = (start: string) => sent.filter((text) => text.startsWith(start)).length;
  return { journal, pool, statements };
}

const withdrawal = (referenceId: string, description = 'note'): NewPaymentIntent => ({
  referenceId,
  endpoint: 'withdraw',
  body: { amount: '10.00', description },
});

/** What each write came to: the state of the intent it answered, or its error's SQLSTATE. */
function outcomesOf(settled: readonly PromiseSettledResult<{ state: string } | undefined>[]) {
  return settled.map((outcome) =>
    outcome.status === 'fulfilled'
      ? { state: outcome.value?.state }
      : { failed: (outcome.reason as { code?: unknown }).code ?? String(outcome.reason) },
  );
}

test('of three records sharing a statement, only the one whose body holds U+0000 fails', async () => {
  const { journal, pool, statements } = await watchedJournal();
  try {
    const settled = await Promise.allSettled([
      journal.record(withdrawal('order-1')),
      journal.record(withdrawal('order-2', 'note\u0000')),
      journal.record(withdrawal('order-3')),
    ]);
    expect(outcomesOf(settled)).toEqual([{ state: 'sending' }, { failed: '22P05' }, { state: 'sending' }]);
    // One statement for the three, then one for each.
    expect(statements('INSERT')).toBe(4);
    expect(await journal.get('order-1')).toMatchObject({ records: 1, body: { description: 'note' } });
    expect(await journal.get('order-2')).toBeUndefined();
    expect(await journal.get('order-3')).toMatchObject({ records: 1, body: { description: 'note' } });
  } finally {
    await pool.end();
  }
});

test('of three records sharing a statement, only the one whose reference id holds U+0000 fails', async () => {
  const { journal, pool } = await watchedJournal();
  try {
    const settled = await Promise.allSettled([
      journal.record(withdrawal('order-1')),
      journal.record(withdrawal('order-\u0000')),
      journal.record(withdrawal('order-3')),
    ]);
    expect(outcomesOf(settled)).toEqual([{ state: 'sending' }, { failed: '22021' }, { state: 'sending' }]);
    expect((await journal.list('sending')).map((intent) => intent.referenceId)).toEqual([
      'order-1',
      'order-3',
    ]);
  } finally {
    await pool.end();
  }
});

test('of three outcome updates sharing a statement, only the one whose reason holds U+0000 fails', async () => {
  const { journal, pool, statements } = await watchedJournal();
  try {
    for (const referenceId of ['order-1', 'order-2', 'order-3'])
      await journal.record(withdrawal(referenceId));
    const refused = (reason: string) => ({ state: 'refused', reason }) as const;
    const settled = await Promise.allSettled([
      journal.update('order-1', refused('insufficient_balance')),
      journal.update('order-2', refused('insufficient_balance\u0000')),
      journal.update('order-3', refused('insufficient_balance')),
    ]);
    expect(outcomesOf(settled)).toEqual([{ state: 'refused' }, { failed: '22021' }, { state: 'refused' }]);
    expect(statements('UPDATE')).toBe(4);
    expect(await journal.get('order-2')).toMatchObject({ state: 'sending' });
  } finally {
    await pool.end();
  }
});
