/**
 * Each group-commit statement of the PostgreSQL journal on a `pg` Pool carries its server-side
 * statement and lock bounds in one round trip: the bounds hold on real PostgreSQL, they end with the
 * statement (the merchant's own queries on the same pooled connection never see them), and the
 * statement is one query on its connection, with no BEGIN or COMMIT around it.
 */
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createPostgresJournal, migratePostgres } from '../../../src/stores/postgres/index.js';
import { statementRecordingPool } from './postgres-pool.js';
import { type RunningServer, startPostgres } from './servers.js';

let server: RunningServer;
let tables = 0;

beforeAll(async () => {
  server = await startPostgres();
});

afterAll(async () => {
  await server?.stop();
});

async function freshJournalTable(pool: pg.Pool): Promise<string> {
  tables += 1;
  const journalTable = `bounded_journal_${tables}`;
  await migratePostgres(pool, { journalTable, dedupeTable: `bounded_dedupe_${tables}` });
  return journalTable;
}

const completed = { state: 'completed', transactionId: 't-1', transactionStatus: 'completed' } as const;

test('a grouped journal write that runs past its statement bound is cancelled, and changes nothing', async () => {
  const pool = new pg.Pool({ connectionString: server.url, max: 2 });
  const journalTable = await freshJournalTable(pool);
  // A row trigger that stalls every update, as a stalled disk or a runaway statement would.
  await pool.query(`CREATE FUNCTION ${journalTable}_stall() RETURNS trigger LANGUAGE plpgsql AS
    'BEGIN PERFORM pg_sleep(3); RETURN NEW; END'`);
  await pool.query(`CREATE TRIGGER stall BEFORE UPDATE ON ${journalTable}
    FOR EACH ROW EXECUTE FUNCTION ${journalTable}_stall()`);
  const statementMs = 300;
  const journal = createPostgresJournal({
    db: pool,
    table: journalTable,
    transactionTimeouts: { statementMs },
  });
  await journal.record({ referenceId: 'order-1', endpoint: 'withdraw', body: {} });
  const started = performance.now();
  const error = await journal.update('order-1', completed).catch((caught: unknown) => caught);
  const ranMs = performance.now() - started;
  expect(error).toMatchObject({ code: '57014' });
  expect(ranMs).toBeGreaterThanOrEqual(statementMs - 50);
  expect(ranMs).toBeLessThan(statementMs + 1_500);
  await pool.query(`DROP TRIGGER stall ON ${journalTable}`);
  expect(await journal.get('order-1')).toMatchObject({ state: 'sending' });
  await pool.end();
}, 30_000);

test("the bounds end with the grouped write: the merchant's own queries on the same connection keep their session's settings", async () => {
  // One connection, whose session sets its own bounds at startup, shared by the journal and the merchant.
  const pool = new pg.Pool({
    connectionString: server.url,
    max: 1,
    options: '-c statement_timeout=12345 -c lock_timeout=6789',
  });
  const journalTable = await freshJournalTable(pool);
  const journal = createPostgresJournal({
    db: pool,
    table: journalTable,
    transactionTimeouts: { statementMs: 1_000, lockMs: 200 },
  });
  const settings = async () =>
    (
      await pool.query(
        `SELECT current_setting('statement_timeout') AS statement, current_setting('lock_timeout') AS lock`,
      )
    ).rows[0];
  await journal.record({ referenceId: 'order-1', endpoint: 'withdraw', body: {} });
  expect(await settings()).toEqual({ statement: '12345ms', lock: '6789ms' });
  // A write that fails on its lock bound leaves the session as it was, too.
  const holder = new pg.Client({ connectionString: server.url });
  await holder.connect();
  await holder.query('BEGIN');
  await holder.query(`SELECT 1 FROM ${journalTable} WHERE reference_id = 'order-1' FOR UPDATE`);
  await expect(journal.update('order-1', completed)).rejects.toMatchObject({ code: '55P03' });
  await holder.query('ROLLBACK');
  await holder.end();
  expect(await settings()).toEqual({ statement: '12345ms', lock: '6789ms' });
  expect(await journal.update('order-1', completed)).toMatchObject({ state: 'completed' });
  expect(await settings()).toEqual({ statement: '12345ms', lock: '6789ms' });
  await pool.end();
}, 30_000);

test('each grouped record, outcome update and sweeper release is one query on its connection, with no BEGIN or COMMIT', async () => {
  const { pool, sent } = statementRecordingPool(server.url);
  const journalTable = await freshJournalTable(pool);
  const journal = createPostgresJournal({ db: pool, table: journalTable });
  await journal.record({ referenceId: 'order-1', endpoint: 'deposit', body: {} });
  await journal.update('order-1', { state: 'accepted', transactionId: 't-1', transactionStatus: 'pending' });
  const [claimed] =
    (await journal.claimDue?.({
      lease: 'sweep-1',
      leaseMs: 60_000,
      limit: 10,
      merchant: undefined,
      settle: false,
      sendingGraceMs: 0,
      firstCheckMs: 0,
      stuckAfterMs: 3_600_000,
    })) ?? [];
  expect(claimed).toMatchObject({ referenceId: 'order-1' });
  sent.length = 0;
  await journal.releaseDue?.('order-1', 'sweep-1', new Date(Date.now() + 60_000).toISOString());
  await journal.update('order-1', completed);
  expect(sent).toHaveLength(2);
  expect(sent).toEqual([
    expect.stringMatching(/^UPDATE .* SET lease = NULL/s),
    expect.stringMatching(/^UPDATE .* SET\s+settled_by/s),
  ]);
  expect(await journal.get('order-1')).toMatchObject({ state: 'completed', checks: 1 });
  await pool.end();
}, 30_000);
