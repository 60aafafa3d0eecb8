/**
 * An instance whose clock runs five minutes ahead of the database's (Date shifted, as a preload
 * shifting it would) re-sends no payment another instance is still sending, and schedules the
 * sweeper's next check on the database's clock, not five minutes late.
 */
import pg from 'pg';
import { afterAll, afterEach, beforeAll, expect, test, vi } from 'vitest';
import { WalletClient } from '../../../src/index.js';
import { createPostgresJournal, migratePostgres } from '../../../src/stores/postgres/index.js';
import { createSandbox, startSandboxServer } from '../../../src/testing/index.js';
import { type RunningServer, startPostgres } from './servers.js';

const SKEW_MS = 5 * 60_000;
let server: RunningServer;
let pool: pg.Pool;
const sandbox = createSandbox();
let service: Awaited<ReturnType<typeof startSandboxServer>>;

beforeAll(async () => {
  server = await startPostgres();
  pool = new pg.Pool({ connectionString: server.url, max: 6 });
  service = await startSandboxServer({ sandbox, port: 0 });
  await migratePostgres(pool, { journalTable: 'skew_journal', dedupeTable: 'skew_dedupe' });
});
afterEach(() => vi.useRealTimers());
afterAll(async () => {
  await service?.close();
  sandbox.close();
  await pool?.end();
  await server?.stop();
});

const databaseNow = async () =>
  Number(
    (await pool.query(`SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS now`)).rows[0].now,
  );

test('recover() on an instance five minutes ahead leaves alone a payment still being sent', async () => {
  const journal = createPostgresJournal({ db: pool, table: 'skew_journal' });
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let recorded = () => {};
  const onRecord = new Promise<void>((resolve) => {
    recorded = resolve;
  });
  const sending = new WalletClient({
    apiKey: 'sk_sandbox_demo_shop',
    baseUrl: service.baseUrl,
    maxRetries: 0,
    journal: { ...journal, record: (intent) => journal.record(intent).finally(recorded) },
    fetch: async (input, init) => {
      await gate;
      return globalThis.fetch(input, init);
    },
  });
  const reference_id = `skew-${Date.now()}`;
  const paying = sending.withdraw({ reference_id, email: 'bob@example.com', amount: 2, currency: 'KES' });
  await onRecord;

  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + SKEW_MS });
  const ahead = new WalletClient({ apiKey: 'sk_sandbox_demo_shop', baseUrl: service.baseUrl, journal });
  const report = await ahead.recover({ olderThanMs: 60_000 });
  expect(report).toMatchObject({ intents: [], left: 1 });
  vi.useRealTimers();

  release();
  await expect(paying).resolves.toMatchObject({ reference_id });
  expect(sandbox.transactions().filter((one) => one.reference_id === reference_id)).toHaveLength(1);
});

test("the sweeper on an instance five minutes ahead schedules its next check on the database's clock", async () => {
  const journal = createPostgresJournal({ db: pool, table: 'skew_journal' });
  const referenceId = `skew-pending-${Date.now()}`;
  await journal.record({ referenceId, endpoint: 'deposit', body: { reference_id: referenceId } });
  await journal.update(referenceId, {
    state: 'accepted',
    transactionId: 'txn_unknown_here',
    transactionStatus: 'pending',
  });

  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + SKEW_MS });
  const ahead = new WalletClient({ apiKey: 'sk_sandbox_demo_shop', baseUrl: service.baseUrl, journal });
  const swept = await ahead.sweepOnce({ firstCheckMs: 1, maxCheckIntervalMs: 1_000 });
  vi.useRealTimers();
  expect(swept.intents.map((one) => one.referenceId)).toContain(referenceId);

  const next = Date.parse((await journal.get(referenceId))?.nextCheckAt ?? '');
  // Due again within its interval (here at most 1 s) of the database's time, not five minutes on.
  expect(next - (await databaseNow())).toBeLessThan(10_000);
});
