import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttp2Server, type Http2Server, type ServerHttp2Session } from 'node:http2';
import * as restate from '@restatedev/restate-sdk';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { checkoutService, type Order, type PaymentOutcome } from '../../examples/restate/checkout.js';
import { completeAwakeableOnSettled, restateWebhookHandler } from '../../examples/restate/settlement.js';
import { createMemoryJournal, type PaymentJournal, WalletClient } from '../../src/index.js';
import { toNodeHandler, type WebhookHandler } from '../../src/webhooks/index.js';
import { DURABLE_API_KEY, tokenOfEmail } from './durable/payers.js';
import { type RestateServer, startRestate } from './durable/restate-server.js';
import { freePort } from './nginx.js';
import { useSandboxServer } from './sandbox-server.js';

// The recipe imports the package by its name, as a merchant's code does; here that name is the source.
vi.mock('merchant-wallet', () => import('../../src/index.js'));
vi.mock('merchant-wallet/webhooks', () => import('../../src/webhooks/index.js'));

const served = useSandboxServer(undefined, { webhooks: { attempts: 1 } });
const { sandbox } = served;
let restateServer: RestateServer;
let service: Http2Server;
const sessions = new Set<ServerHttp2Session>();
let shop: Server;
let journal: PaymentJournal;
/** The shop's webhook endpoint delegates to this, so a test can make Restate unreachable from it. */
let webhook: WebhookHandler;
const fulfilled: { order: Order; outcome: PaymentOutcome }[] = [];

const bob = { email: 'bob@example.com', token: 'tok_sandbox_bob' };
const alice = { email: 'alice@example.com', token: 'tok_sandbox_alice' };

beforeAll(async () => {
  restateServer = await startRestate();
  journal = createMemoryJournal();
  const wallet = new WalletClient({
    apiKey: DURABLE_API_KEY,
    baseUrl: served.baseUrl,
    journal,
    maxRetries: 1,
    onSettled: completeAwakeableOnSettled(restateServer.ingressUrl),
  });
  // The SDK logs each invocation to the console; a test must not (test/setup/no-stray-console.ts).
  const endpoint = restate
    .endpoint()
    .setLogger(() => {})
    .bind(
      checkoutService({
        wallet,
        tokenFor: async (email) => tokenOfEmail(email),
        fulfil: async (order, outcome) => void fulfilled.push({ order, outcome }),
      }),
    );
  service = createHttp2Server(endpoint.http2Handler());
  // Restate holds its HTTP/2 connections open; closing the server waits for them unless ended here.
  service.on('session', (session) => sessions.add(session));
  const servicePort = await freePort();
  await new Promise<void>((resolve) => service.listen(servicePort, '127.0.0.1', resolve));
  await restateServer.register(`http://127.0.0.1:${servicePort}`);
  shop = createHttpServer((request, response) => void toNodeHandler(webhook)(request, response));
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  const { port } = shop.address() as { port: number };
  sandbox.updateMerchant('app_demo_shop', { depositWebhookUrl: `http://127.0.0.1:${port}/webhooks` });
}, 60_000);

afterAll(async () => {
  await new Promise((resolve) => shop?.close(resolve));
  for (const session of sessions) session.destroy();
  await new Promise((resolve) => service?.close(resolve));
  await restateServer?.stop();
});

/** A client of the shop's side, without `onSettled` unless given: the webhook path alone completes awakeables. */
function shopWallet(onSettled?: ReturnType<typeof completeAwakeableOnSettled>) {
  return new WalletClient({
    apiKey: DURABLE_API_KEY,
    baseUrl: served.baseUrl,
    journal,
    ...(onSettled === undefined ? {} : { onSettled }),
  });
}

/** Submits an order to the ingress with its id as idempotency key; answers its invocation id. */
async function submit(order: Order): Promise<string> {
  const response = await fetch(new URL('checkout/pay/send', restateServer.ingressUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': order.orderId },
    body: JSON.stringify(order),
  });
  expect(response.status).toBe(202);
  return ((await response.json()) as { invocationId: string }).invocationId;
}

async function outcomeOf(invocationId: string): Promise<PaymentOutcome> {
  const response = await fetch(
    new URL(`restate/invocation/${invocationId}/attach`, restateServer.ingressUrl),
    {
      signal: AbortSignal.timeout(30_000),
    },
  );
  expect(response.status).toBe(200);
  return (await response.json()) as PaymentOutcome;
}

/** The sandbox's pending deposit under `referenceId`, once the invocation has made it. */
async function pendingDeposit(referenceId: string) {
  await vi.waitFor(
    () => expect(sandbox.transactions().some((tx) => tx.reference_id === referenceId)).toBe(true),
    {
      timeout: 10_000,
    },
  );
  return sandbox.transactions().find((tx) => tx.reference_id === referenceId)!;
}

describe('the Restate checkout recipe, against the real restate-server', () => {
  test('a webhook whose awakeable cannot be completed is answered 500, and its redelivery completes the payment', async () => {
    webhook = restateWebhookHandler({
      verifyWith: shopWallet(),
      journal,
      ingressUrl: `http://127.0.0.1:${await freePort()}/`, // nothing listens: Restate is unreachable
    });
    const order = {
      orderId: 'order-unreachable',
      email: bob.email,
      amount: 150,
      currency: 'KES',
      paymentProvider: 'mpesa',
    };
    const invocationId = await submit(order);
    const referenceId = `rs_${invocationId}`;
    const tx = await pendingDeposit(referenceId);
    sandbox.settle(tx.transaction_id, { status: 'completed' });
    const failed = await sandbox.webhooks.waitFor(
      (delivery) => 'reference_id' in delivery.event && delivery.event.reference_id === referenceId,
    );
    expect(failed.state).toBe('failed');
    expect(failed.attempts.map((attempt) => attempt.status)).toEqual([500]);

    webhook = restateWebhookHandler({
      verifyWith: shopWallet(),
      journal,
      ingressUrl: restateServer.ingressUrl,
    });
    sandbox.webhooks.redeliver(failed.id);
    expect(await outcomeOf(invocationId)).toEqual({
      status: 'completed',
      referenceId,
      transactionId: tx.transaction_id,
    });
    const redelivered = await sandbox.webhooks.waitFor((delivery) => delivery.redeliveryOf === failed.id);
    expect(redelivered.state).toBe('delivered');
    expect(fulfilled.filter((one) => one.order.orderId === order.orderId)).toHaveLength(1);
  });

  test('a settlement whose webhook is lost is read by the sweeper, whose onSettled completes the awakeable', async () => {
    const wallet = shopWallet(completeAwakeableOnSettled(restateServer.ingressUrl));
    webhook = restateWebhookHandler({ verifyWith: wallet, journal, ingressUrl: restateServer.ingressUrl });
    const order = {
      orderId: 'order-lost-webhook',
      email: bob.email,
      amount: 151,
      currency: 'KES',
      paymentProvider: 'mpesa',
    };
    const invocationId = await submit(order);
    const referenceId = `rs_${invocationId}`;
    const tx = await pendingDeposit(referenceId);
    sandbox.settle(tx.transaction_id, { status: 'failed', delivery: { mode: 'drop' } });
    const report = await wallet.sweepOnce({ firstCheckMs: 1 });
    // The sweeper's read records the status, which settles the payment then and there.
    expect(report.intents).toContainEqual({ referenceId, action: 'read', outcome: 'failed' });
    expect(await journal.get(referenceId)).toMatchObject({ state: 'failed', settledAt: expect.any(String) });
    expect(await outcomeOf(invocationId)).toEqual({
      status: 'failed',
      referenceId,
      transactionId: tx.transaction_id,
    });
    expect(fulfilled.filter((one) => one.order.orderId === order.orderId)).toHaveLength(1);
  });

  test('a deposit whose answer is lost is resolved under the same reference id, and paid once', async () => {
    webhook = restateWebhookHandler({
      verifyWith: shopWallet(),
      journal,
      ingressUrl: restateServer.ingressUrl,
    });
    sandbox.faults.inject({ kind: 'drop-after', route: 'deposit', times: 1 });
    const order = { orderId: 'order-lost-answer', email: alice.email, amount: 2, currency: 'KES' };
    const invocationId = await submit(order);
    const referenceId = `rs_${invocationId}`;
    const outcome = await outcomeOf(invocationId);
    expect(outcome).toMatchObject({ status: 'completed', referenceId });
    expect(sandbox.transactions().filter((tx) => tx.reference_id === referenceId)).toHaveLength(1);
    expect(sandbox.transactions().filter((tx) => tx.reference_id?.includes(invocationId))).toHaveLength(1);
    expect(await journal.get(referenceId)).toMatchObject({
      state: 'completed',
      transactionStatus: 'completed',
    });
    // Submitting the order again attaches to its invocation: no second payment.
    expect(await submit(order)).toBe(invocationId);
    expect(sandbox.transactions().filter((tx) => tx.reference_id === referenceId)).toHaveLength(1);
  });
});
