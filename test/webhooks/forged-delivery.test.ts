import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { WalletClient, type WalletClientOptions } from '../../src/index.js';
import {
  createSandbox,
  type Sandbox,
  type SandboxServer,
  startSandboxServer,
} from '../../src/testing/index.js';
import {
  createWebhookHandler,
  type TransactionContext,
  toNodeHandler,
  type UnverifiedTransactionEvent,
  type WebhookHandler,
} from '../../src/webhooks/index.js';
import { notConfirmedError } from '../helpers/webhook-fixtures.js';

const TRANSPORTS: Record<string, WalletClientOptions> = {
  'node:http': {},
  fetch: { fetch: (input, init) => globalThis.fetch(input, init) },
};

let sandbox: Sandbox | undefined;
let api: SandboxServer | undefined;
let receiver: Server | undefined;
afterEach(async () => {
  receiver?.closeAllConnections();
  await new Promise((resolve) => (receiver ? receiver.close(resolve) : resolve(undefined)));
  sandbox?.close();
  await api?.close();
  receiver = undefined;
  sandbox = undefined;
  api = undefined;
});

/** Serves `handler` on loopback; each request waits for `gate` first, so a test can hold the service's delivery back. */
async function serveHeldBack(handler: WebhookHandler, gate: Promise<void>): Promise<string> {
  const handle = toNodeHandler(handler);
  receiver = createServer((req, res) => void gate.then(() => handle(req, res)));
  await new Promise<void>((resolve) => receiver?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/wallet/webhooks`;
}

/** A sandbox served on loopback, and a client of it over `transport`. */
async function startService(transport: string) {
  sandbox = createSandbox();
  api = await startSandboxServer({ sandbox, port: 0 });
  const wallet = new WalletClient({
    apiKey: 'sk_sandbox_demo_shop',
    baseUrl: api.baseUrl,
    ...TRANSPORTS[transport],
  });
  return { wallet, sandbox };
}

function post(handler: WebhookHandler, body: unknown): Promise<Response> {
  return handler(
    new Request('https://shop.example/wallet/webhooks', { method: 'POST', body: JSON.stringify(body) }),
  );
}

describe.each(Object.keys(TRANSPORTS))('verifyWith a client over the %s transport', (transport) => {
  test('a forged event posted after the real status change, before the genuine delivery, is refused and the genuine one is processed once', async () => {
    const { wallet, sandbox } = await startService(transport);
    const calls: [UnverifiedTransactionEvent, TransactionContext][] = [];
    const errors: unknown[] = [];
    const handler = createWebhookHandler({
      verifyWith: wallet,
      onTransaction: (event, context) => void calls.push([event, context]),
      onError: (error) => void errors.push(error),
    });
    let release: () => void = () => {};
    const url = await serveHeldBack(handler, new Promise((resolve) => (release = resolve)));
    const pending = await wallet.deposit(
      {
        reference_id: `order-${transport}`,
        amount: 700,
        currency: 'KES',
        payment_provider: 'mpesa',
        webhook_url: url,
      },
      { userToken: 'tok_sandbox_bob' },
    );

    // The real status change happens; its delivery is held back at the receiver.
    sandbox.settle(pending.transaction_id, { status: 'completed' });
    const forged = await post(handler, {
      event: 'transaction',
      transaction_id: pending.transaction_id,
      transaction_status: 'completed',
      reference_id: 'attacker-order',
      amount: 1,
      currency: 'KES',
    });
    release();
    await sandbox.webhooks.idle();

    expect(forged.status).toBe(503);
    expect(await forged.json()).toMatchObject({ error: 'not_confirmed' });
    expect(errors).toEqual([notConfirmedError('reference_id', 'amount')]);
    expect(calls).toHaveLength(1);
    const [event, context] = calls[0] ?? [];
    expect(event).toMatchObject({ reference_id: `order-${transport}`, amount: 700 });
    expect(context).toMatchObject({
      verified: true,
      status: {
        transaction_id: pending.transaction_id,
        reference_id: `order-${transport}`,
        amount: '700.00',
      },
    });
    const [delivery] = sandbox.webhooks.deliveries();
    expect(delivery?.attempts.map((attempt) => attempt.status)).toEqual([200]);

    // The genuine delivery again is a duplicate: processed exactly once.
    const again = await post(handler, delivery?.event);
    expect(await again.json()).toEqual({ received: true, duplicate: true });
    expect(calls).toHaveLength(1);
  });

  test('a genuine delivery ahead of the status endpoint is not processed until it is delivered again and agrees', async () => {
    const { wallet, sandbox } = await startService(transport);
    const statuses: string[] = [];
    const handler = createWebhookHandler({
      verifyWith: wallet,
      onTransaction: (_event, context) => {
        if (context.verified) statuses.push(context.status.transaction_status);
      },
    });
    const pending = await wallet.deposit(
      { reference_id: `early-${transport}`, amount: 700, currency: 'KES', payment_provider: 'mpesa' },
      { userToken: 'tok_sandbox_bob' },
    );
    const final = {
      transaction_id: pending.transaction_id,
      transaction_status: 'completed',
      reference_id: `early-${transport}`,
      amount: 700,
      currency: 'KES',
    };

    const early = await post(handler, final);
    sandbox.settle(pending.transaction_id, { status: 'completed' });
    const redelivered = await post(handler, final);

    expect([early.status, redelivered.status]).toEqual([503, 200]);
    expect(statuses).toEqual(['completed']);
  });
});
