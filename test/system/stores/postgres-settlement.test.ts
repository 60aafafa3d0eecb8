import pg from 'pg';
import { expect, test } from 'vitest';
import { type OnSettled, type PaymentJournal, WalletConfigError } from '../../../src/index.js';
import { settle } from '../../../src/settlement/settle.js';
import { createPostgresJournal, migratePostgres } from '../../../src/stores/postgres/index.js';
import { usePostgresPool } from './postgres-pool.js';

const postgres = usePostgresPool({ max: 12 });
let tables = 0;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A fresh journal on `db` with completed withdrawals (`order-1` and on), and a fulfilment table
 * beside it.
 */
async function completedPayment(
  db: pg.Pool = postgres.pool,
  payments = 1,
): Promise<{ journal: PaymentJournal; fulfilments: string }> {
  tables += 1;
  const journalTable = `settle_journal_${tables}`;
  const fulfilments = `fulfilments_${tables}`;
  await migratePostgres(postgres.pool, { journalTable, dedupeTable: `settle_dedupe_${tables}` });
  await postgres.pool.query(`CREATE TABLE ${fulfilments} (reference_id text, status text)`);
  const journal = createPostgresJournal({ db, table: journalTable });
  for (let n = 1; n <= payments; n++) {
    const referenceId = `order-${n}`;
    await journal.record({ referenceId, endpoint: 'withdraw', body: { reference_id: referenceId } });
    await journal.update(referenceId, {
      state: 'completed',
      transactionId: `tx-${n}`,
      transactionStatus: 'completed',
    });
  }
  return { journal, fulfilments };
}

/** A pool whose connections note the text of every statement they run, in `statements`. */
function notingPool(): { pool: pg.Pool; statements: string[] } {
  const statements: string[] = [];
  const pool = new pg.Pool({ connectionString: postgres.url, max: 4 });
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    Object.assign(client, {
      query: (...args: unknown[]) => {
        const [text] = args;
        statements.push(typeof text === 'string' ? text : String((text as { text?: unknown }).text));
        return query(...args);
      },
    });
  });
  return { pool, statements };
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

test('a callback that writes nothing through its transaction begins none: settlements made at once share statements', async () => {
  const { pool, statements } = notingPool();
  try {
    const { journal } = await completedPayment(pool, 20);
    const settlement = { journal, onSettled: async () => {}, leaseMs: 60_000, logger: undefined };
    statements.length = 0;
    const references = Array.from({ length: 20 }, (_, n) => `order-${n + 1}`);
    const results = await Promise.all(references.map((referenceId) => settle(settlement, referenceId)));
    expect(results).toEqual(references.map(() => true));
    for (const referenceId of references)
      expect((await journal.get(referenceId))?.settledAt).toEqual(expect.any(String));
    expect(statements.filter((text) => text.startsWith('BEGIN'))).toEqual([]);
    const marks = statements.filter((text) => text.includes('SET settled_at'));
    expect(marks.length).toBeGreaterThan(0);
    expect(marks.length).toBeLessThan(10);
  } finally {
    await pool.end();
  }
});

test.each([
  ['having written nothing through it', false],
  ['having written through it', true],
])(
  'a statement through context.transaction after the callback returned, %s, is refused and runs nowhere',
  async (_, wrote) => {
    const { journal, fulfilments } = await completedPayment();
    const insert = `INSERT INTO ${fulfilments} (reference_id, status) VALUES ($1, $2)`;
    let late: Promise<unknown> = Promise.resolve();
    const onSettled: OnSettled = async (intent, status, { transaction }) => {
      if (wrote) await transaction?.query(insert, [intent.referenceId, status]);
      late = pause(20).then(() => transaction?.query(insert, ['late', status]));
    };
    expect(await settle({ journal, onSettled, leaseMs: 60_000, logger: undefined }, 'order-1')).toBe(true);
    const refused = await late.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(WalletConfigError);
    expect(refused).toMatchObject({ option: 'context.transaction' });
    expect(await fulfilled(fulfilments)).toEqual(
      wrote ? [{ reference_id: 'order-1', status: 'completed' }] : [],
    );
    expect((await journal.get('order-1'))?.settledAt).toEqual(expect.any(String));
  },
);
