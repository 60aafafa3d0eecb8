/**
 * An instance whose clock runs five minutes ahead of the database's (Date shifted, as a preload
 * shifting it would) re-sends no payment another instance is still sending, and schedules the
 * sweeper's next check on the database's clock, not five minutes late.
 */
import { afterEach, expect, test, vi } from 'vitest';
import { WalletClient } from '../../../src/index.js';
import { createPostgresJournal } from '../../../src/stores/postgres/index.js';
import { useSandboxServer } from '../sandbox-server.js';
import { usePostgresPool } from './postgres-pool.js';

const SKEW_MS = 5 * 60_000;
const postgres = usePostgresPool({
  max: 6,
  migrate: { journalTable: 'skew_journal', dedupeTable: 'skew_dedupe' },
});
const served = useSandboxServer();
afterEach(() => vi.useRealTimers());

const databaseNow = async () =>
  Number(
    (await postgres.pool.query(`SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS now`))
      .rows[0].now,
  );

test('recover() on an instance five minutes ahead leaves alone a payment still being sent', async () => {
  const journal = createPostgresJournal({ db: postgres.pool, table: 'skew_journal' });
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
    baseUrl: served.baseUrl,
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
  const ahead = new WalletClient({ apiKey: 'sk_sandbox_demo_shop', baseUrl: served.baseUrl, journal });
  const report = await ahead.recover({ olderThanMs: 60_000 });
  expect(report).toMatchObject({ intents: [], left: 1 });
  vi.useRealTimers();

  release();
  await expect(paying).resolves.toMatchObject({ reference_id });
  expect(served.sandbox.transactions().filter((one) => one.reference_id === reference_id)).toHaveLength(1);
});

test("the sweeper on an instance five minutes ahead schedules its next check on the database's clock", async () => {
  const journal = createPostgresJournal({ db: postgres.pool, table: 'skew_journal' });
  const referenceId = `skew-pending-${Date.now()}`;
  await journal.record({ referenceId, endpoint: 'deposit', body: { reference_id: referenceId } });
  await journal.update(referenceId, {
    state: 'accepted',
    transactionId: 'txn_unknown_here',
    transactionStatus: 'pending',
  });

  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + SKEW_MS });
  const ahead = new WalletClient({ apiKey: 'sk_sandbox_demo_shop', baseUrl: served.baseUrl, journal });
  const swept = await ahead.sweepOnce({ firstCheckMs: 1, maxCheckIntervalMs: 1_000 });
  vi.useRealTimers();
  expect(swept.intents.map((one) => one.referenceId)).toContain(referenceId);

  const next = Date.parse((await journal.get(referenceId))?.nextCheckAt ?? '');
  // Due again within its interval (here at most 1 s) of the database's time, not five minutes on.
  expect(next - (await databaseNow())).toBeLessThan(10_000);
});
