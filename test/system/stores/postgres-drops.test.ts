/**
 * A database that drops its connections or restarts never takes a process down: every connection
 * the SDK checks out or holds (the settlement transaction, the pool's idle ones behind group commit,
 * dedupe and the sweeper, the LISTEN session) is terminated with `pg_terminate_backend`, and the
 * server is restarted as `-m immediate` does, under load; every payment still settles exactly once.
 * And a settlement transaction cut off mid-way blocks others no longer than its bound.
 */
import pg from 'pg';
import { expect, test } from 'vitest';
import { createMemoryJournal, type OnSettled, WalletClient } from '../../../src/index.js';
import {
  createPostgresDedupeStore,
  createPostgresJournal,
  createPostgresTransactionEvents,
  migratePostgres,
} from '../../../src/stores/postgres/index.js';
import { useRestartablePostgresAndSandbox } from './restartable-postgres.js';

const running = useRestartablePostgresAndSandbox();
let tables = 0;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Ends every other backend: the pool's idle and busy connections and the LISTEN session alike. */
async function terminateAll(): Promise<number> {
  const client = new pg.Client({ connectionString: running.postgres.url });
  client.on('error', () => {});
  await client.connect();
  const { rows } = await client.query(
    `SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity
     WHERE pid <> pg_backend_pid() AND backend_type = 'client backend'`,
  );
  await client.end();
  return rows.length;
}

async function freshTables(pool: pg.Pool) {
  tables += 1;
  const journalTable = `drops_journal_${tables}`;
  const fulfilments = `drops_fulfilments_${tables}`;
  await migratePostgres(pool, { journalTable, dedupeTable: `drops_dedupe_${tables}` });
  await pool.query(`CREATE TABLE ${fulfilments} (reference_id text, status text)`);
  return { journalTable, fulfilments };
}

test('connections terminated one kind after another, then a crash restart, under load: the process lives, every payment settles once', async () => {
  // A pool with no 'error' listener of its own, as most applications leave it.
  const pool = new pg.Pool({ connectionString: running.postgres.url, max: 8 });
  const { journalTable, fulfilments } = await freshTables(pool);
  const warnings: string[] = [];
  const logger = { warn: (message: string) => warnings.push(message), error: () => {} };
  const journal = createPostgresJournal({ db: pool, table: journalTable, logger });
  createPostgresDedupeStore({ db: pool, ttlMs: 60_000, table: `drops_dedupe_${tables}` });
  const eventErrors: unknown[] = [];
  const events = await createPostgresTransactionEvents({ pool, onError: (error) => eventErrors.push(error) });
  let slowSettle = false;
  const onSettled: OnSettled = async (intent, status, { transaction }) => {
    await transaction?.query(`INSERT INTO ${fulfilments} VALUES ($1, $2)`, [intent.referenceId, status]);
    // Some settlements sit in their transaction while the connections are terminated.
    if (slowSettle) await pause(30);
  };
  const wallet = new WalletClient({
    apiKey: 'sk_sandbox_demo_shop',
    baseUrl: running.baseUrl,
    journal,
    onSettled,
    // A settlement the drops cut off runs again after this lease, through the sweeper.
    settleLeaseMs: 2_000,
    timeoutMs: 2_000,
    maxRetries: 1,
  });
  const references: string[] = [];
  let stop = false;
  const payer = async (lane: number) => {
    for (let n = 0; !stop; n++) {
      const reference_id = `drop-${tables}-${lane}-${n}`;
      references.push(reference_id);
      await wallet
        .withdraw({ reference_id, email: 'bob@example.com', amount: 1, currency: 'KES' })
        .catch(() => undefined);
    }
  };
  const lanes = Array.from({ length: 6 }, (_, lane) => payer(lane));
  await pause(300);
  slowSettle = true;
  expect(await terminateAll()).toBeGreaterThan(0);
  await pause(300);
  expect(await terminateAll()).toBeGreaterThan(0);
  slowSettle = false;
  await pause(300);
  await running.postgres.restart();
  await pause(500);
  stop = true;
  await Promise.all(lanes);

  // Every payment the service applied settles, once: the sweeper finishes what the drops left (an
  // intent whose outcome could not be written waits for its call's sending lease, 30 s, to end).
  for (let round = 0; round < 45; round++) {
    const health = await wallet.journalHealth();
    if (health.unsettled === 0 && health.counts.sending + health.counts.unknown === 0) break;
    await wallet.sweepOnce({ sendingGraceMs: 1, leaseMs: 1_000 }).catch(() => undefined);
    await pause(1_100);
  }
  const ledger = running.sandbox
    .transactions()
    .filter((one) => one.reference_id?.startsWith(`drop-${tables}-`));
  const byReference = new Map<string, number>();
  for (const one of ledger)
    byReference.set(one.reference_id as string, (byReference.get(one.reference_id as string) ?? 0) + 1);
  expect([...byReference.values()].every((count) => count === 1)).toBe(true);
  const { rows } = await pool.query(
    `SELECT reference_id, count(*)::int AS n FROM ${fulfilments} GROUP BY reference_id`,
  );
  expect(rows.filter((row: { n: number }) => row.n !== 1)).toEqual([]);
  const completed = ledger.filter((one) => one.transaction_status === 'completed').length;
  // What no read can settle (accepted, its transaction id never heard: a re-send answered
  // reference_already_used) is shown to a person by journalHealth(), never settled twice.
  const health = await wallet.journalHealth();
  const forAPerson = health.stuck.filter((one) => one.why === 'no_transaction_id').length;
  expect({ fulfilled: rows.length + forAPerson, health }).toMatchObject({ fulfilled: completed });
  expect(health).toMatchObject({ unsettled: 0, counts: { sending: 0, unknown: 0 } });
  expect(completed).toBeGreaterThan(10);
  // The drops were reported, not thrown at the process; the event source listens again.
  expect(warnings.some((message) => /dropped a connection/.test(message))).toBe(true);
  expect(eventErrors.length).toBeGreaterThan(0);
  await events.close();
  await pool.end();
}, 120_000);

test('a settlement transaction cut off in the middle blocks a healthy writer no longer than its idle-in-transaction bound', async () => {
  const pool = new pg.Pool({ connectionString: running.postgres.url, max: 4 });
  const { journalTable, fulfilments } = await freshTables(pool);
  await pool.query(`INSERT INTO ${fulfilments} VALUES ('order-1', 'none')`);
  const idleInTransactionMs = 1_000;
  const journal = createPostgresJournal({
    db: pool,
    table: journalTable,
    transactionTimeouts: { idleInTransactionMs, lockMs: 60_000 },
  });
  await journal.record({ referenceId: 'order-1', endpoint: 'withdraw', body: {} });
  await journal.update('order-1', {
    state: 'completed',
    transactionId: 't-1',
    transactionStatus: 'completed',
  });
  const lease = 'partitioned';
  await journal.claimSettlement?.('order-1', lease, 60_000);
  let locked = () => {};
  const holding = new Promise<void>((resolve) => {
    locked = resolve;
  });
  // The partitioned instance: it locked the fulfilment row, then hears nothing for 5 s.
  const partitioned = journal
    .settleInTransaction?.('order-1', lease, async (transaction) => {
      await transaction.query(
        `UPDATE ${fulfilments} SET status = 'partitioned' WHERE reference_id = 'order-1'`,
      );
      locked();
      await pause(5_000);
    })
    .catch((error: unknown) => error);
  await holding;
  const started = performance.now();
  await pool.query(`UPDATE ${fulfilments} SET status = 'healthy' WHERE reference_id = 'order-1'`);
  const blockedMs = performance.now() - started;
  expect(blockedMs).toBeLessThan(idleInTransactionMs + 1_500);
  expect(await partitioned).toBeInstanceOf(Error);
  expect((await pool.query(`SELECT status FROM ${fulfilments}`)).rows).toEqual([{ status: 'healthy' }]);
  await pool.end();
}, 60_000);

test('a grouped journal write meeting a row lock a cut-off transaction holds fails after its lock bound instead of waiting', async () => {
  const pool = new pg.Pool({ connectionString: running.postgres.url, max: 4 });
  const { journalTable } = await freshTables(pool);
  const lockMs = 500;
  const journal = createPostgresJournal({ db: pool, table: journalTable, transactionTimeouts: { lockMs } });
  await journal.record({ referenceId: 'order-1', endpoint: 'withdraw', body: {} });
  // The cut-off instance: it locked the intent's row and hears nothing more.
  const cutOff = await pool.connect();
  await cutOff.query('BEGIN');
  await cutOff.query(`SELECT 1 FROM ${journalTable} WHERE reference_id = 'order-1' FOR UPDATE`);
  const started = performance.now();
  const error = await journal
    .update('order-1', { state: 'completed', transactionId: 't-1', transactionStatus: 'completed' })
    .catch((caught: unknown) => caught);
  const blockedMs = performance.now() - started;
  expect(error).toMatchObject({ code: '55P03' });
  expect(blockedMs).toBeGreaterThanOrEqual(lockMs - 50);
  expect(blockedMs).toBeLessThan(lockMs + 1_500);
  await cutOff.query('ROLLBACK');
  cutOff.release();
  // The write was rolled back whole; once the lock is gone the same update lands.
  expect(await journal.get('order-1')).toMatchObject({ state: 'sending' });
  expect(
    await journal.update('order-1', {
      state: 'completed',
      transactionId: 't-1',
      transactionStatus: 'completed',
    }),
  ).toMatchObject({ state: 'completed' });
  await pool.end();
}, 60_000);

test('an event source started while the database is down reports each attempt, raises events_not_listening, and listens once it is back', async () => {
  const wallet = new WalletClient({
    apiKey: 'sk_sandbox_demo_shop',
    baseUrl: running.baseUrl,
    journal: createMemoryJournal(),
  });
  const notListeningAfterMs = 300;
  await running.postgres.down();
  const errors: unknown[] = [];
  const warnings: string[] = [];
  const events = await createPostgresTransactionEvents({
    connectionString: running.postgres.url,
    onError: (error) => errors.push(error),
    logger: { warn: (message) => void warnings.push(message) },
  });
  expect(errors.length).toBeGreaterThan(0);
  expect(events.health()).toMatchObject({ state: 'reconnecting', lastError: 'ECONNREFUSED' });
  expect(warnings).toEqual([expect.stringMatching(/could not listen at start-up; retrying with backoff/)]);
  // Down for longer than the threshold (test/settlement/journal-health-events.test.ts times it exactly).
  await pause(notListeningAfterMs);
  const down = await wallet.journalHealth({ events, notListeningAfterMs });
  expect(down.alarms).toEqual(['events_not_listening']);
  expect(down.events).toMatchObject({ state: 'reconnecting', lastError: 'ECONNREFUSED' });
  await running.postgres.up();
  // Once listening again, an event another instance publishes reaches this source.
  const other = await createPostgresTransactionEvents({ connectionString: running.postgres.url });
  const heard = new Promise<void>((resolve) => {
    const stop = events.subscribe((event) => {
      if (event.transaction_id !== 'txn_back') return;
      stop();
      resolve();
    });
  });
  const event = { transaction_id: 'txn_back', transaction_status: 'completed' } as const;
  let done = false;
  for (let tries = 0; tries < 100 && !done; tries++) {
    await other.publish(event as never).catch(() => undefined);
    done = await Promise.race([heard.then(() => true), pause(200).then(() => false)]);
  }
  expect(done).toBe(true);
  expect(events.health()).toMatchObject({ state: 'connected', failedAttempts: 0 });
  expect((await wallet.journalHealth({ events, notListeningAfterMs })).alarms).toEqual([]);
  await other.close();
  await events.close();
}, 60_000);
