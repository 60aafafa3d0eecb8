import type pg from 'pg';
import { describe, expect, test } from 'vitest';
import {
  dedupeConformanceChecks,
  journalConformanceChecks,
  queryConformanceChecks,
  sweepConformanceChecks,
} from '../../../src/conformance/index.js';
import { WalletConfigError } from '../../../src/index.js';
import {
  createPostgresDedupeStore,
  createPostgresJournal,
  migratePostgres,
  postgresSchemaSql,
} from '../../../src/stores/postgres/index.js';
import { POSTGRES_SCHEMA_VERSION } from '../../../src/stores/postgres/migrations.js';
import { usePostgresPool } from './postgres-pool.js';

const postgres = usePostgresPool({ max: 10 });
let tables = 0;

/** A fresh pair of tables, so each conformance check starts empty. */
async function freshTables(): Promise<{ journalTable: string; dedupeTable: string }> {
  tables += 1;
  const names = { journalTable: `journal_${tables}`, dedupeTable: `dedupe_${tables}` };
  await migratePostgres(postgres.pool, names);
  return names;
}

describe('the PostgreSQL journal passes the journal conformance suite', () => {
  const factory = async () =>
    createPostgresJournal({ db: postgres.pool, table: (await freshTables()).journalTable });
  for (const check of journalConformanceChecks(factory)) test(check.name, check.run);
});

describe('the PostgreSQL journal passes the query checks', () => {
  const factory = async () =>
    createPostgresJournal({ db: postgres.pool, table: (await freshTables()).journalTable });
  for (const check of queryConformanceChecks(factory)) test(check.name, check.run);
});

describe('the PostgreSQL journal passes the settlement and sweeper checks', () => {
  const factory = async () =>
    createPostgresJournal({ db: postgres.pool, table: (await freshTables()).journalTable });
  for (const check of sweepConformanceChecks(factory)) test(check.name, check.run);
});

describe('the PostgreSQL dedupe store passes the dedupe conformance suite', () => {
  const factory = async ({ ttlMs }: { ttlMs: number }) =>
    createPostgresDedupeStore({ db: postgres.pool, ttlMs, table: (await freshTables()).dedupeTable });
  for (const check of dedupeConformanceChecks(factory)) test(check.name, check.run);
});

describe('the PostgreSQL journal commits concurrent writes in groups', () => {
  /** A pool that counts the statements sent through it. */
  function counting() {
    const counted = { statements: 0 };
    const db = {
      query: (text: string, values?: unknown[]) => {
        counted.statements += 1;
        return postgres.pool.query(text, values);
      },
    };
    return { db, counted };
  }

  test('100 concurrent payments take far fewer statements than 200 writes, and each gets its own row', async () => {
    const { db, counted } = counting();
    const journal = createPostgresJournal({ db, table: (await freshTables()).journalTable });
    const ids = Array.from({ length: 100 }, (_, n) => `group-${n}`);
    const recorded = await Promise.all(
      ids.map((id) => journal.record({ referenceId: id, endpoint: 'withdraw', body: { reference_id: id } })),
    );
    expect(recorded.map((intent) => [intent.referenceId, intent.state])).toEqual(
      ids.map((id) => [id, 'sending']),
    );
    const updated = await Promise.all(
      ids.map((id, n) =>
        journal.update(id, { state: 'completed', transactionId: `tx-${n}`, transactionStatus: 'completed' }),
      ),
    );
    expect(updated.map((intent) => intent?.transactionId)).toEqual(ids.map((_, n) => `tx-${n}`));
    expect(counted.statements).toBeLessThan(40);
    expect((await journal.list('completed')).length).toBe(100);
  });

  test('concurrent writes of one reference apply in call order, and the rules hold inside a group', async () => {
    const journal = createPostgresJournal({ db: postgres.pool, table: (await freshTables()).journalTable });
    const body = { reference_id: 'same' };
    const records = await Promise.all(
      Array.from({ length: 10 }, () => journal.record({ referenceId: 'same', endpoint: 'deposit', body })),
    );
    expect(new Set(records.map((intent) => intent.createdAt)).size).toBe(1);
    const [unknown, refused, back, closed] = await Promise.all([
      journal.update('same', { state: 'unknown', reason: 'first' }),
      journal.update('same', { state: 'refused', reason: 'second' }),
      journal.update('same', { state: 'sending', reason: 'third' }),
      journal.update('same', { state: 'closed', reason: 'fourth', ifState: ['sending', 'unknown'] }),
      journal.update('missing', { state: 'accepted' }),
    ]);
    expect([unknown?.state, refused?.state, back?.state, closed?.state]).toEqual([
      'unknown',
      'refused',
      'refused',
      'refused',
    ]);
    expect(closed?.reason).toBe('third');
    expect(await journal.update('missing', { state: 'accepted' })).toBeUndefined();
  });

  test('groupCommit: false writes one statement each; bad groupCommit options are refused', async () => {
    const { db, counted } = counting();
    const journal = createPostgresJournal({
      db,
      table: (await freshTables()).journalTable,
      groupCommit: false,
    });
    await Promise.all(
      ['a', 'b', 'c'].map((id) =>
        journal.record({ referenceId: id, endpoint: 'withdraw', body: { reference_id: id } }),
      ),
    );
    expect(counted.statements).toBe(3);
    expect(() => createPostgresJournal({ db: postgres.pool, groupCommit: { maxBatch: 0 } })).toThrow(
      /^groupCommit\.maxBatch: must be a whole number from 1 to 10000/,
    );
    expect(() => createPostgresJournal({ db: postgres.pool, groupCommit: 'yes' as never })).toThrow(
      /^groupCommit:/,
    );
  });
});

describe('PostgreSQL set-up', () => {
  test('migrations run concurrently from several processes create the tables once', async () => {
    await Promise.all(Array.from({ length: 5 }, () => migratePostgres(postgres.pool)));
    const { rows } = await postgres.pool.query(
      `SELECT count(*)::int AS n FROM pg_tables WHERE tablename IN ('merchant_wallet_payment_intents', 'merchant_wallet_webhook_dedupe')`,
    );
    expect(rows[0].n).toBe(2);
  });

  test('tables made by the first, unversioned schema upgrade in place and keep their intents', async () => {
    // The schema as 0.1.0 created it, with no record of its version.
    await postgres.pool.query(`CREATE TABLE legacy_journal (
  reference_id text PRIMARY KEY,
  endpoint text NOT NULL CHECK (endpoint IN ('deposit', 'withdraw')),
  body jsonb NOT NULL,
  state text NOT NULL CHECK (state IN ('sending', 'unknown', 'applied', 'refused')),
  transaction_id text, transaction_status text, reason text,
  seq bigserial NOT NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at timestamptz NOT NULL DEFAULT clock_timestamp());
CREATE TABLE legacy_dedupe (key text PRIMARY KEY, expires_at timestamptz NOT NULL);
INSERT INTO legacy_journal (reference_id, endpoint, body, state) VALUES ('old-1', 'withdraw', '{"reference_id":"old-1"}', 'unknown');
INSERT INTO legacy_journal (reference_id, endpoint, body, state, transaction_id, transaction_status) VALUES
  ('old-paid', 'withdraw', '{}', 'applied', 'tx-paid', 'completed'),
  ('old-failed', 'deposit', '{}', 'applied', 'tx-failed', 'failed'),
  ('old-pending', 'deposit', '{}', 'applied', 'tx-pending', 'pending'),
  ('old-no-id', 'withdraw', '{}', 'applied', NULL, NULL);`);
    const tables = { journalTable: 'legacy_journal', dedupeTable: 'legacy_dedupe' };
    await Promise.all([migratePostgres(postgres.pool, tables), migratePostgres(postgres.pool, tables)]);
    await migratePostgres(postgres.pool, tables);
    const journal = createPostgresJournal({ db: postgres.pool, table: 'legacy_journal' });
    const old = await journal.get('old-1');
    expect(old).toMatchObject({ referenceId: 'old-1', state: 'unknown', merchant: undefined });
    // The old state 'applied' names its outcome now.
    const states = Object.fromEntries(
      await Promise.all(
        ['old-paid', 'old-failed', 'old-pending', 'old-no-id'].map(
          async (ref) => [ref, (await journal.get(ref))?.state] as const,
        ),
      ),
    );
    expect(states).toEqual({
      'old-paid': 'completed',
      'old-failed': 'failed',
      'old-pending': 'accepted',
      'old-no-id': 'accepted',
    });
    await expect(
      postgres.pool.query(`UPDATE legacy_journal SET state = 'applied' WHERE reference_id = 'old-1'`),
    ).rejects.toThrow(/state_v3/);
    expect(await journal.update('old-1', { state: 'closed', reason: 'settled by hand' })).toMatchObject({
      state: 'closed',
      reason: 'settled by hand',
    });
    const { rows } = await postgres.pool.query(
      `SELECT version FROM merchant_wallet_schema_versions WHERE tables = '"legacy_journal"|"legacy_dedupe"'`,
    );
    expect(rows).toEqual([{ version: POSTGRES_SCHEMA_VERSION }]);
  });

  test('an intent written in the merchant transaction commits with the order row, or not at all', async () => {
    await postgres.pool.query('CREATE TABLE IF NOT EXISTS orders (id text PRIMARY KEY)');
    const journal = createPostgresJournal({ db: postgres.pool, table: (await freshTables()).journalTable });
    const client = await postgres.pool.connect();
    try {
      for (const [id, end] of [
        ['order-1', 'ROLLBACK'],
        ['order-2', 'COMMIT'],
      ] as const) {
        await client.query('BEGIN');
        await client.query('INSERT INTO orders (id) VALUES ($1)', [id]);
        await journal
          .inTransaction(client)
          .record({ referenceId: id, endpoint: 'deposit', body: { reference_id: id, amount: 1 } });
        expect(await journal.get(id)).toBeUndefined(); // not visible outside the transaction yet
        await client.query(end);
      }
    } finally {
      client.release();
    }
    expect(await journal.get('order-1')).toBeUndefined();
    expect((await journal.get('order-2'))?.state).toBe('sending');
    // The client's own record of the same reference id keeps the committed intent.
    expect((await journal.record({ referenceId: 'order-2', endpoint: 'deposit', body: {} })).body).toEqual({
      reference_id: 'order-2',
      amount: 1,
    });
  });

  test('purgeExpired deletes only expired keys', async () => {
    const { dedupeTable } = await freshTables();
    const short = createPostgresDedupeStore({ db: postgres.pool, ttlMs: 1, table: dedupeTable });
    const long = createPostgresDedupeStore({ db: postgres.pool, ttlMs: 60_000, table: dedupeTable });
    const a = await short.claim('a', 60_000);
    const b = await long.claim('b', 60_000);
    await short.complete?.('a', (a as { lease: string }).lease);
    await long.complete?.('b', (b as { lease: string }).lease);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await long.purgeExpired()).toBe(1);
    expect(await long.claim('b', 60_000)).toEqual({ outcome: 'duplicate' });
  });

  test('bad adapter arguments are WalletConfigErrors naming them', () => {
    const cases: [() => unknown, string][] = [
      [() => createPostgresJournal({ db: {} as pg.Pool }), 'db'],
      [() => createPostgresJournal({ db: postgres.pool, table: 'Robert"; DROP TABLE orders' }), 'table'],
      [() => createPostgresDedupeStore({ db: postgres.pool, ttlMs: 0 }), 'ttlMs'],
      [() => createPostgresDedupeStore({ db: null as unknown as pg.Pool, ttlMs: 1 }), 'db'],
      [() => createPostgresJournal(undefined as never), 'createPostgresJournal'],
      [() => postgresSchemaSql({ journalTable: 'a b' }), 'journalTable'],
    ];
    for (const [make, option] of cases) {
      expect(make).toThrow(WalletConfigError);
      expect(make).toThrow(new RegExp(`^${option}:`));
    }
  });
});
