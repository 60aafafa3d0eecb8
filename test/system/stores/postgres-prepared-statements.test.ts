/**
 * The PostgreSQL journal's grouped writes are named prepared statements run with a generic plan,
 * parsed once per connection. A server that refuses a named statement before running it (a pooler
 * that moved or shared the session's statements) gets the same write again unnamed, applied once,
 * and every later write on that pool unnamed, said once as a warning.
 */
import fc from 'fast-check';
import pg from 'pg';
import { expect, test } from 'vitest';
import { createMemoryJournal } from '../../../src/journal/memory.js';
import type { PaymentIntentUpdate, PaymentJournal } from '../../../src/journal/types.js';
import { statementName } from '../../../src/stores/postgres/bounded-statement.js';
import { createPostgresJournal, migratePostgres } from '../../../src/stores/postgres/index.js';
import { recordBatchSql } from '../../../src/stores/postgres/journal-batches.js';
import { checkTable } from '../../../src/stores/postgres/queryable.js';
import { usePostgresPool } from './postgres-pool.js';

// Each test opens pools of its own on the server, each connection's prepared statements its own.
const postgres = usePostgresPool({ max: 1 });
let tables = 0;

/** A pool of `max` connections, a fresh journal table on it, and the warnings its journal logs. */
async function journalOnPool(max: number, prepare?: (pool: pg.Pool, table: string) => Promise<void>) {
  tables += 1;
  const table = `prepared_journal_${tables}`;
  const pool = new pg.Pool({ connectionString: postgres.url, max });
  await migratePostgres(pool, { journalTable: table, dedupeTable: `prepared_dedupe_${tables}` });
  await prepare?.(pool, table);
  const warnings: { message: string; code: unknown }[] = [];
  const logger = {
    warn: (message: string, context?: Record<string, unknown>) =>
      warnings.push({ message, code: context?.code }),
  };
  return { pool, table, warnings, journal: createPostgresJournal({ db: pool, table, logger }) };
}

/** The statements prepared on a pool of one connection, and how often each ran with which plan. */
async function preparedOn(pool: pg.Pool) {
  const { rows } = await pool.query<{ name: string; generic_plans: string; custom_plans: string }>(
    'SELECT name, generic_plans::text, custom_plans::text FROM pg_prepared_statements ORDER BY name',
  );
  return rows.map((row) => ({
    name: row.name,
    generic: Number(row.generic_plans),
    custom: Number(row.custom_plans),
  }));
}

const accepted = { state: 'accepted', transactionId: 't-1', transactionStatus: 'pending' } as const;
const completed = { state: 'completed', transactionId: 't-1', transactionStatus: 'completed' } as const;

test('grouped records and updates are prepared once per connection and run with a generic plan', async () => {
  const { pool, journal, warnings } = await journalOnPool(1);
  for (const referenceId of ['order-1', 'order-2', 'order-3']) {
    await journal.record({ referenceId, endpoint: 'withdraw', body: {} });
    await journal.update(referenceId, accepted);
  }
  const prepared = await preparedOn(pool);
  expect(prepared).toHaveLength(2);
  for (const statement of prepared) {
    expect(statement.name).toMatch(/^merchant_wallet_[0-9a-z]+_\d+$/);
    expect(statement).toMatchObject({ generic: 3, custom: 0 });
  }
  // The generic plan was local to each write: the session plans as it did.
  expect((await pool.query(`SELECT current_setting('plan_cache_mode') AS mode`)).rows[0]).toEqual({
    mode: 'auto',
  });
  expect(warnings).toEqual([]);
  await pool.end();
}, 30_000);

test('a generic plan made while the table was empty still finds each row by its key, and by no other index, once the table is large: records, updates, read-backs, claims, releases and settlements', async () => {
  // No autovacuum: an ANALYZE would replan the statements, and the plans made on the empty table must hold.
  const { pool, table, journal } = await journalOnPool(1, (pool, table) =>
    pool.query(`ALTER TABLE ${table} SET (autovacuum_enabled = false)`).then(() => undefined),
  );
  for (const referenceId of ['order-1', 'order-2']) {
    await journal.record({ referenceId, endpoint: 'withdraw', body: {} });
    // A second record and an update whose ifState does not hold read the intent back.
    await journal.record({ referenceId, endpoint: 'withdraw', body: {} });
    await journal.update(referenceId, { ...accepted, ifState: ['refused'] });
    await journal.update(referenceId, completed);
  }
  // A settlement's claim, and a sweeper's release of what it claimed; a settlement claimed and marked.
  await journal.claimSettlement?.('order-1', 'lease-1', 60_000);
  await journal.releaseDue?.('order-1', 'lease-1', undefined);
  await journal.claimSettlement?.('order-2', 'lease-2', 60_000);
  expect(await journal.completeSettlement?.('order-2', 'lease-2')).toBe(true);
  await pool.query(
    `INSERT INTO ${table} (reference_id, endpoint, body, state) SELECT 'bulk-' || n, 'withdraw', '{}', (ARRAY['accepted', 'completed', 'refused'])[n % 3 + 1] FROM generate_series(1, 20000) AS n`,
  );
  const { rows } = await pool.query<{ name: string; parameters: number }>(
    'SELECT name, cardinality(parameter_types) AS parameters FROM pg_prepared_statements ORDER BY name',
  );
  expect(rows).toHaveLength(6);
  // The session takes the cached generic plans as they are, without planning again.
  await pool.query('SET plan_cache_mode = force_generic_plan');
  for (const { name, parameters } of rows) {
    const nulls = Array.from({ length: parameters }, () => 'NULL').join(', ');
    const plan = (await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE ${name}(${nulls})`)).rows
      .map((row) => row['QUERY PLAN'])
      .join('\n');
    expect(plan).not.toMatch(/Seq Scan/);
    // A scan of another index (the due index holds every unsettled intent) reads rows by the thousand.
    const indexes = [
      ...plan.matchAll(/(?:Index Scan|Index Only Scan) using (\S+)|Bitmap Index Scan on (\S+)/g),
    ];
    for (const [, scanned, bitmap] of indexes) expect(scanned ?? bitmap).toBe(`${table}_pkey`);
  }
  await pool.end();
}, 30_000);

test('statements a pooler lost ("does not exist"): the write goes again unnamed, once, and so do all later ones', async () => {
  const { pool, journal, warnings } = await journalOnPool(1);
  await journal.record({ referenceId: 'order-1', endpoint: 'withdraw', body: {} });
  await journal.update('order-1', accepted);
  // The connection forgets its statements, as a server connection a pooler hands over never had them.
  await pool.query('DEALLOCATE ALL');
  expect(await journal.update('order-1', completed)).toMatchObject({ state: 'completed', records: 1 });
  expect(warnings).toEqual([{ message: expect.stringMatching(/unnamed/), code: '26000' }]);
  expect(await journal.record({ referenceId: 'order-2', endpoint: 'withdraw', body: {} })).toMatchObject({
    records: 1,
  });
  await journal.update('order-2', accepted);
  expect(await preparedOn(pool)).toEqual([]);
  expect(await journal.get('order-2')).toMatchObject({ state: 'accepted', records: 1 });
  expect(warnings).toHaveLength(1);
  await pool.end();
}, 30_000);

test('a statement name another session took ("already exists"): the record is sent again unnamed and applied once', async () => {
  const { pool, journal, warnings } = await journalOnPool(1, (pool, table) =>
    pool
      .query(`PREPARE ${statementName(recordBatchSql(checkTable('table', table)))} AS SELECT 1`)
      .then(() => undefined),
  );
  expect(
    await journal.record({ referenceId: 'order-1', endpoint: 'deposit', body: { amount: 1 } }),
  ).toMatchObject({
    referenceId: 'order-1',
    records: 1,
  });
  expect(warnings).toEqual([{ message: expect.stringMatching(/unnamed/), code: '42P05' }]);
  expect(await journal.get('order-1')).toMatchObject({ records: 1, body: { amount: 1 } });
  await pool.end();
}, 30_000);

test('a migration that changed a column a statement answers: the update goes again unnamed and applies', async () => {
  const { pool, table, journal, warnings } = await journalOnPool(1);
  await journal.record({ referenceId: 'order-1', endpoint: 'withdraw', body: {} });
  await journal.update('order-1', accepted);
  await pool.query(`ALTER TABLE ${table} ALTER COLUMN reason TYPE varchar(500)`);
  expect(
    await journal.update('order-1', { state: 'failed', transactionStatus: 'failed', reason: 'declined' }),
  ).toMatchObject({
    state: 'failed',
    reason: 'declined',
  });
  expect(warnings).toEqual([{ message: expect.stringMatching(/unnamed/), code: '0A000' }]);
  await pool.end();
}, 30_000);

/** One payment's writes: its record, then each outcome update in order. */
const paymentWrites = fc.record({
  records: fc.integer({ min: 1, max: 2 }),
  updates: fc.array(
    fc.constantFrom<PaymentIntentUpdate>(
      accepted,
      completed,
      { state: 'refused', reason: 'no funds' },
      {
        state: 'unknown',
      },
    ),
    { maxLength: 3 },
  ),
});

test('concurrent payments while a connection loses its statements end as the memory journal says, each write applied once', async () => {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(paymentWrites, { minLength: 1, maxLength: 8 }),
      fc.array(fc.nat({ max: 20 }), { maxLength: 3 }),
      async (payments, losses) => {
        run += 1;
        const { pool, journal } = await journalOnPool(2);
        const model = createMemoryJournal();
        const write = async (
          target: PaymentJournal,
          referenceId: string,
          writes: (typeof payments)[number],
        ) => {
          for (let n = 0; n < writes.records; n++)
            await target.record({ referenceId, endpoint: 'withdraw', body: {} });
          for (const update of writes.updates) await target.update(referenceId, update);
        };
        // Each connection may lose its statements at any point among the payments' writes.
        const lose = losses.map(async (ticks) => {
          for (let tick = 0; tick < ticks; tick++) await new Promise((resolve) => setImmediate(resolve));
          await pool.query('DEALLOCATE ALL');
        });
        await Promise.all([...payments.map((writes, n) => write(journal, `r${run}-${n}`, writes)), ...lose]);
        for (const [n, writes] of payments.entries()) await write(model, `r${run}-${n}`, writes);
        for (const n of payments.keys()) {
          const [stored, expected] = await Promise.all([
            journal.get(`r${run}-${n}`),
            model.get(`r${run}-${n}`),
          ]);
          expect(stored).toMatchObject({
            state: expected?.state,
            records: expected?.records,
            transactionStatus: expected?.transactionStatus,
            reason: expected?.reason,
          });
        }
        await pool.end();
      },
    ),
    { numRuns: 25 },
  );
}, 120_000);
