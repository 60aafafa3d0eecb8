/**
 * Each kind of connection the SDK holds on PostgreSQL, terminated on its own with
 * `pg_terminate_backend` while every kind is busy: the settlement transactions and the grouped
 * journal writes of a paying instance, the sweeper of a second instance, the webhook dedupe store,
 * the LISTEN session and the token store, each on a pool of its own (told apart by
 * `application_name`), none with an 'error' listener of the application's. The process lives (an
 * unhandled 'error' would fail this file), every payment is applied once and fulfilled once, and the
 * event source says it reconnected and hears events again.
 */
import pg from 'pg';
import { expect, test } from 'vitest';
import { type OnSettled, WalletClient } from '../../../src/index.js';
import {
  createPostgresDedupeStore,
  createPostgresJournal,
  createPostgresTokenStore,
  createPostgresTransactionEvents,
  migratePostgres,
} from '../../../src/stores/postgres/index.js';
import { useRestartablePostgresAndSandbox } from './restartable-postgres.js';

const running = useRestartablePostgresAndSandbox();

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A pool whose connections name `kind`, with no 'error' listener of its own. */
const poolFor = (kind: string, max = 4) =>
  new pg.Pool({ connectionString: running.postgres.url, max, application_name: `wallet-${kind}` });

/** Terminates the backends of `kind` (in `state`, when given) and answers how many. */
async function terminate(kind: string, state?: string): Promise<number> {
  const admin = new pg.Client({ connectionString: running.postgres.url });
  admin.on('error', () => {});
  await admin.connect();
  const { rows } = await admin.query(
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
     WHERE application_name = $1 AND ($2::text IS NULL OR state = $2) AND pid <> pg_backend_pid()`,
    [`wallet-${kind}`, state ?? null],
  );
  await admin.end();
  return rows.length;
}

/** Terminates `kind` until at least one of its backends was hit (a busy kind may be between statements). */
async function hit(kind: string, state?: string): Promise<number> {
  for (let tries = 0; tries < 100; tries++) {
    const ended = await terminate(kind, state);
    if (ended > 0) return ended;
    await pause(20);
  }
  return 0;
}

test('each kind of connection terminated on its own under load: the process lives, every payment settles once, every store works on', async () => {
  const setup = poolFor('setup', 1);
  await migratePostgres(setup, {
    journalTable: 'each_journal',
    dedupeTable: 'each_dedupe',
    tokenTable: 'each_tokens',
  });
  await setup.query('CREATE TABLE each_fulfilments (reference_id text, status text)');
  await setup.end();

  const warnings: string[] = [];
  const logger = { warn: (message: string) => void warnings.push(message) };
  const pools = {
    journal: poolFor('journal', 8),
    sweeper: poolFor('sweeper'),
    dedupe: poolFor('dedupe'),
    listen: poolFor('listen', 2),
    tokens: poolFor('tokens'),
  };
  let slowSettle = false;
  const onSettled: OnSettled = async (intent, status, { transaction }) => {
    await transaction?.query('INSERT INTO each_fulfilments VALUES ($1, $2)', [intent.referenceId, status]);
    // Some settlements sit in their transaction while their connections are terminated.
    if (slowSettle) await pause(40);
  };
  const common = {
    apiKey: 'sk_sandbox_demo_shop',
    baseUrl: running.baseUrl,
    onSettled,
    settleLeaseMs: 2_000,
    timeoutMs: 2_000,
    maxRetries: 1,
  };
  const paying = new WalletClient({
    ...common,
    journal: createPostgresJournal({ db: pools.journal, table: 'each_journal', logger }),
  });
  // A second instance on the same journal whose only work is the sweeper.
  const sweeping = new WalletClient({
    ...common,
    journal: createPostgresJournal({ db: pools.sweeper, table: 'each_journal', logger }),
  });
  const dedupe = createPostgresDedupeStore({ db: pools.dedupe, ttlMs: 60_000, table: 'each_dedupe', logger });
  const tokens = createPostgresTokenStore({ db: pools.tokens, table: 'each_tokens', logger });
  const events = await createPostgresTransactionEvents({ pool: pools.listen, logger });
  const publisher = await createPostgresTransactionEvents({ connectionString: running.postgres.url });

  let stop = false;
  const stopSweeper = new AbortController();
  const sweeper = sweeping
    .supervise({ signal: stopSweeper.signal, intervalMs: 200, sendingGraceMs: 1, leaseMs: 1_000 })
    .catch((error: unknown) => error);
  const references: string[] = [];
  const payer = async (lane: number) => {
    for (let n = 0; !stop; n++) {
      const reference_id = `each-${lane}-${n}`;
      references.push(reference_id);
      await paying
        .withdraw({ reference_id, email: 'bob@example.com', amount: 1, currency: 'KES' })
        .catch(() => undefined);
    }
  };
  const claims = { done: 0, failed: 0 };
  const deduper = async () => {
    for (let n = 0; !stop; n++) {
      try {
        const claim = await dedupe.claim(`evt-${n}`, 5_000);
        if (typeof claim === 'object' && claim.outcome === 'claimed')
          await dedupe.complete?.(`evt-${n}`, claim.lease);
        claims.done += 1;
      } catch {
        claims.failed += 1;
      }
    }
  };
  // The token store counts in one key, by compare-and-set: a write either lands once or not at all.
  const writes = { landed: 0, failed: 0 };
  const counter = async () => {
    while (!stop) {
      try {
        const current = await tokens.get('counter');
        const next = String(Number(current ?? '0') + 1);
        if (await tokens.compareAndSet('counter', current, next)) writes.landed += 1;
      } catch {
        writes.failed += 1;
      }
    }
  };
  const workers = [...Array.from({ length: 5 }, (_, lane) => payer(lane)), deduper(), counter()];

  await pause(1_000);
  slowSettle = true;
  const ended = {
    settlementTransactions: await hit('journal', 'idle in transaction'),
    groupCommit: 0,
    sweeper: await hit('sweeper'),
    dedupe: await hit('dedupe'),
    listen: await hit('listen'),
    tokens: await hit('tokens'),
  };
  slowSettle = false;
  await pause(200);
  ended.groupCommit = await hit('journal');
  await pause(400);
  stop = true;
  await Promise.all(workers);

  // Every kind was hit at least once.
  expect(Object.values(ended).every((count) => count > 0)).toBe(true);
  process.stdout.write(`postgres drops, backends terminated by kind: ${JSON.stringify(ended)}\n`);

  // What the drops left, the sweeper finishes (a call whose outcome could not be written waits for
  // its sending lease, 30 s, to run out).
  for (let round = 0; round < 60; round++) {
    const health = await paying.journalHealth();
    if (health.unsettled === 0 && health.counts.sending + health.counts.unknown === 0) break;
    await pause(1_000);
  }
  stopSweeper.abort();
  expect(await sweeper).toBeUndefined();

  const ledger = running.sandbox.transactions().filter((one) => one.reference_id?.startsWith('each-'));
  const applied = new Map<string, number>();
  for (const one of ledger)
    applied.set(one.reference_id as string, (applied.get(one.reference_id as string) ?? 0) + 1);
  expect([...applied.values()].filter((count) => count !== 1)).toEqual([]);
  const { rows } = await pools.journal.query(
    'SELECT reference_id, count(*)::int AS n FROM each_fulfilments GROUP BY reference_id',
  );
  expect(rows.filter((row: { n: number }) => row.n !== 1)).toEqual([]);
  const health = await paying.journalHealth({ events });
  expect(health).toMatchObject({ unsettled: 0, counts: { sending: 0, unknown: 0 } });
  const completed = ledger.filter((one) => one.transaction_status === 'completed').length;
  const forAPerson = health.stuck.filter((one) => one.why === 'no_transaction_id').length;
  expect(rows.length + forAPerson).toBe(completed);
  expect(completed).toBeGreaterThan(10);

  // The dedupe and token stores kept working, and no token write landed twice or was lost unseen.
  expect(claims.done).toBeGreaterThan(10);
  expect(await dedupe.claim('evt-0', 5_000)).toEqual({ outcome: 'duplicate' });
  const count = Number(await tokens.get('counter'));
  expect(writes.landed).toBeGreaterThan(10);
  expect(count).toBeGreaterThanOrEqual(writes.landed);
  expect(count).toBeLessThanOrEqual(writes.landed + writes.failed);
  process.stdout.write(
    `postgres drops: ${references.length} payments, ${completed} completed, ${forAPerson} stuck without a transaction id; ${claims.done} dedupe claims (${claims.failed} rejected); ${writes.landed} token writes (${writes.failed} rejected)\n`,
  );

  // The LISTEN session came back, said so, and hears events again.
  expect(warnings.some((message) => /could not listen|listening connection dropped/.test(message))).toBe(
    true,
  );
  expect(warnings.some((message) => /dropped a connection/.test(message))).toBe(true);
  for (let tries = 0; tries < 100 && events.health().state !== 'connected'; tries++) await pause(100);
  expect(health.events?.lastError).toEqual(expect.any(String));
  let heard = false;
  const stopListening = events.subscribe((event) => {
    if (event.transaction_id === 'txn-each') heard = true;
  });
  for (let tries = 0; tries < 50 && !heard; tries++) {
    await publisher.publish({ transaction_id: 'txn-each', transaction_status: 'completed' } as never);
    await pause(100);
  }
  stopListening();
  expect(heard).toBe(true);
  await Promise.all([events.close(), publisher.close()]);
  await Promise.all(Object.values(pools).map((pool) => pool.end()));
}, 180_000);
