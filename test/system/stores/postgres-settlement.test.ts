import { expect, test } from 'vitest';
import type { OnSettled, PaymentJournal } from '../../../src/index.js';
import { settle } from '../../../src/settlement/settle.js';
import { createPostgresJournal, migratePostgres } from '../../../src/stores/postgres/index.js';
import { usePostgresPool } from './postgres-pool.js';

const postgres = usePostgresPool({ max: 12 });
let tables = 0;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A fresh journal with one completed withdrawal, and a fulfilment table beside it. */
async function completedPayment(): Promise<{ journal: PaymentJournal; fulfilments: string }> {
  tables += 1;
  const journalTable = `settle_journal_${tables}`;
  const fulfilments = `fulfilments_${tables}`;
  await migratePostgres(postgres.pool, { journalTable, dedupeTable: `settle_dedupe_${tables}` });
  await postgres.pool.query(`CREATE TABLE ${fulfilments} (reference_id text, status text)`);
  const journal = createPostgresJournal({ db: postgres.pool, table: journalTable });
  await journal.record({ referenceId: 'order-1', endpoint: 'withdraw', body: { reference_id: 'order-1' } });
  await journal.update('order-1', {
    state: 'completed',
    transactionId: 'tx-1',
    transactionStatus: 'completed',
  });
  return { journal, fulfilments };
}

/** An `onSettled` that fulfils through the settlement's transaction. */
const fulfil =
  (table: string, after?: () => Promise<void>): OnSettled =>
  async (intent, status, { transaction }) => {
    if (transaction === undefined) throw new Error('no settlement transaction');
    await transaction.query(`INSERT INTO ${table} (reference_id, status) VALUES ($1, $2)`, [
      intent.referenceId,
      status,
    ]);
    await after?.();
  };

const fulfilled = async (table: string) =>
  (await postgres.pool.query(`SELECT reference_id, status FROM ${table}`)).rows as unknown[];

test('writes through the settlement transaction commit with settledAt', async () => {
  const { journal, fulfilments } = await completedPayment();
  const settlement = { journal, onSettled: fulfil(fulfilments), leaseMs: 60_000, logger: undefined };
  expect(await settle(settlement, 'order-1')).toBe(true);
  expect(await fulfilled(fulfilments)).toEqual([{ reference_id: 'order-1', status: 'completed' }]);
  expect((await journal.get('order-1'))?.settledAt).toEqual(expect.any(String));
  expect(await settle(settlement, 'order-1')).toBe(false);
  expect(await fulfilled(fulfilments)).toHaveLength(1);
});

test('a callback that throws after writing rolls its writes back with the settlement; the next run commits once', async () => {
  const { journal, fulfilments } = await completedPayment();
  const failing = fulfil(fulfilments, async () => {
    throw new Error('the mailer is down');
  });
  expect(await settle({ journal, onSettled: failing, leaseMs: 100, logger: undefined }, 'order-1')).toBe(
    false,
  );
  expect(await fulfilled(fulfilments)).toEqual([]);
  expect((await journal.get('order-1'))?.settledAt).toBeUndefined();
  await pause(150);
  const working = { journal, onSettled: fulfil(fulfilments), leaseMs: 100, logger: undefined };
  expect(await settle(working, 'order-1')).toBe(true);
  expect(await fulfilled(fulfilments)).toHaveLength(1);
});

test('a run that outlives its lease, while another instance settles, rolls back: one fulfilment in all', async () => {
  const { journal, fulfilments } = await completedPayment();
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const slow = settle(
    { journal, onSettled: fulfil(fulfilments, () => held), leaseMs: 100, logger: undefined },
    'order-1',
  );
  await pause(150);
  const fast = { journal, onSettled: fulfil(fulfilments), leaseMs: 60_000, logger: undefined };
  expect(await settle(fast, 'order-1')).toBe(true);
  release();
  expect(await slow).toBe(false);
  expect(await fulfilled(fulfilments)).toHaveLength(1);
});

test('of ten instances settling one payment at once, one commits its fulfilment', async () => {
  const { journal, fulfilments } = await completedPayment();
  const settlement = { journal, onSettled: fulfil(fulfilments), leaseMs: 60_000, logger: undefined };
  const results = await Promise.all(Array.from({ length: 10 }, () => settle(settlement, 'order-1')));
  expect(results.filter(Boolean)).toHaveLength(1);
  expect(await fulfilled(fulfilments)).toHaveLength(1);
});

test('a journal inside your own transaction has no settlement transaction of its own', async () => {
  const { fulfilments } = await completedPayment();
  const client = await postgres.pool.connect();
  try {
    const journal = createPostgresJournal({ db: client, table: `settle_journal_${tables}` });
    expect(journal.settleInTransaction).toBeUndefined();
    const seen: unknown[] = [];
    const onSettled: OnSettled = (_intent, _status, context) => {
      seen.push(context.transaction);
    };
    expect(await settle({ journal, onSettled, leaseMs: 60_000, logger: undefined }, 'order-1')).toBe(true);
    expect(seen).toEqual([undefined]);
    expect(await fulfilled(fulfilments)).toEqual([]);
  } finally {
    client.release();
  }
});
