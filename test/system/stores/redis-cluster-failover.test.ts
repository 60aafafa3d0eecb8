import { createCluster } from 'redis';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { WalletClient, WalletJournalError } from '../../../src/index.js';
import { createRedisDedupeStore, createRedisJournal } from '../../../src/stores/redis/index.js';
import { createSandbox, type Sandbox, startSandboxServer } from '../../../src/testing/index.js';
import { createWebhookHandler } from '../../../src/webhooks/index.js';
import { type RunningCluster, startRedisCluster } from './cluster.js';

let cluster: RunningCluster;
let client: ReturnType<typeof createCluster>;
let sandbox: Sandbox;
let server: Awaited<ReturnType<typeof startSandboxServer>>;

beforeAll(async () => {
  cluster = await startRedisCluster();
  // As a merchant should run it on a cluster: no offline queue, so a dead master fails calls at once
  // instead of holding them until it returns.
  client = createCluster({
    rootNodes: cluster.urls.map((url) => ({ url })),
    defaults: { disableOfflineQueue: true, socket: { reconnectStrategy: () => 100 } },
  });
  client.on('error', () => {});
  await client.connect();
  sandbox = createSandbox();
  server = await startSandboxServer({ sandbox, port: 0 });
});

afterAll(async () => {
  sandbox?.close();
  await server?.close();
  await client?.close();
  await cluster?.stop();
});

const withdrawal = (reference_id: string) =>
  ({ reference_id, email: 'bob@example.com', amount: 2, currency: 'KES' }) as const;

test('a journal master killed mid-run fails calls with typed errors, reports nothing unapplied as applied, and recover() settles what was left open', async () => {
  const journal = createRedisJournal({ client });
  const logged: string[] = [];
  const wallet = new WalletClient({
    apiKey: 'sk_sandbox_demo_shop',
    baseUrl: server.baseUrl,
    maxRetries: 0,
    journal,
    logger: { error: (message: string) => logged.push(message) },
  });
  const deliveries = new Map<string, number>();
  const failures: unknown[] = [];
  const handler = createWebhookHandler({
    dedupe: createRedisDedupeStore({ client, ttlMs: 60_000 }),
    onTransaction: (event) => {
      deliveries.set(event.transaction_id, (deliveries.get(event.transaction_id) ?? 0) + 1);
    },
    onError: (error) => failures.push(error),
  });
  const deliver = (transaction_id: string) =>
    handler(
      new Request('http://merchant.test/webhooks', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ event: 'transaction', transaction_id, transaction_status: 'completed' }),
      }),
    ).then((response) => response.status);

  expect((await wallet.withdraw(withdrawal('before'))).journalError).toBeUndefined();
  const victim = await cluster.nodeFor('{merchant-wallet:journal}:sequence');
  // Webhook events whose dedupe keys live on the master about to die.
  const events: string[] = [];
  for (let n = 0; events.length < 3; n++) {
    const id = `tx_failover_${n}`;
    if ((await cluster.nodeFor(`merchant-wallet:dedupe:transaction:${id}:completed`)) === victim)
      events.push(id);
  }

  // A withdrawal recorded, then held by the service while its journal's master dies.
  sandbox.faults.inject({ kind: 'latency', route: 'withdraw', ms: 1_000 });
  const inFlight = wallet.withdraw(withdrawal('in-flight'));
  while ((await journal.get('in-flight')) === undefined)
    await new Promise((resolve) => setTimeout(resolve, 10));
  await victim.kill();

  const during = await wallet.withdraw(withdrawal('during')).catch((error: unknown) => error);
  expect(during).toBeInstanceOf(WalletJournalError);
  expect(during).toMatchObject({ operation: 'record', referenceId: 'during' });
  // The service answered, so the caller is told it was applied; its outcome, written behind the
  // answer, could not land, and that is logged.
  const answered = await inFlight;
  expect(answered.transaction_status).toBe('completed');
  expect(answered.journalError).toBeUndefined();
  await vi.waitFor(
    () =>
      expect(
        logged.some((message) =>
          message.includes('could not record the outcome of reference_id "in-flight"'),
        ),
      ).toBe(true),
    {
      timeout: 35_000,
    },
  );

  const statuses = await Promise.all(events.map(deliver));
  expect(statuses.every((status) => status >= 500)).toBe(true);
  expect(deliveries.size).toBe(0);
  expect(failures.length).toBeGreaterThanOrEqual(events.length);

  await victim.restart();
  await cluster.waitForOk();
  // The client reconnects to the returned master on its own.
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      await journal.get('before');
      break;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  // Nothing the service did not take is in the journal as accepted; the open intent survived the kill.
  expect(await journal.get('during')).toBeUndefined();
  expect(await journal.get('in-flight')).toMatchObject({ state: 'sending' });
  // Its outcome could not be written, so the call's sending lease (30 s, on the store's clock) still
  // holds it: recover() re-sends it only once that lease has ended, as after a crash.
  const leaseUntil = Date.parse((await journal.get('in-flight'))?.leaseUntil ?? '1970-01-01T00:00:00Z');
  while ((await (journal.now?.() ?? Date.now())) < leaseUntil) {
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const report = await wallet.recover();
  expect(report.intents.map(({ referenceId, outcome }) => [referenceId, outcome])).toEqual([
    ['in-flight', 'already_applied'],
  ]);
  const { intents: accepted } = await journal.list({ state: ['accepted', 'completed', 'failed'] });
  const ledger = new Map(sandbox.transactions().map((one) => [one.reference_id, one.transaction_id]));
  expect([...ledger.keys()].sort()).toEqual(['before', 'in-flight']);
  expect(accepted.map((one) => one.referenceId).sort()).toEqual(['before', 'in-flight']);
  expect((await journal.get('before'))?.transactionId).toBe(ledger.get('before'));

  // Redelivered after the outage, each event is processed once; a further duplicate is not.
  expect(await Promise.all(events.map(deliver))).toEqual([200, 200, 200]);
  expect(await Promise.all(events.map(deliver))).toEqual([200, 200, 200]);
  expect([...deliveries.values()]).toEqual([1, 1, 1]);
});
