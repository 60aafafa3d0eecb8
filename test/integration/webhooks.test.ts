import { afterEach, expect, test } from 'vitest';
import type { TransactionContext, TransactionEvent, UserAuthorizedEvent } from '../../src/webhooks/index.js';
import { startServerTarget, type Target, TOKENS } from './harness.js';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

let target: Target | undefined;
let receiver: WebhookReceiver | undefined;
afterEach(async () => {
  await receiver?.close();
  await target?.close();
  receiver = undefined;
  target = undefined;
});

test('approving on the login page delivers a token to the SDK webhook handler that works for listProviders', async () => {
  target = await startServerTarget();
  const events: UserAuthorizedEvent[] = [];
  receiver = await startWebhookReceiver({ onUserAuthorized: (event) => void events.push(event) });
  target.sandbox.updateMerchant('app_demo_shop', { authWebhookUrl: receiver.url });

  const answer = await fetch(`${target.authUrl}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      app_id: 'app_demo_shop',
      redirect_url: 'https://shop.example/done',
      email: 'bob@example.com',
      decision: 'approve',
    }),
    redirect: 'manual',
  });

  // The sandbox redirects only after the delivery, so the token is already there.
  expect([answer.status, answer.headers.get('location')]).toEqual([303, 'https://shop.example/done']);
  expect(events.map((e) => e.user_email)).toEqual(['bob@example.com']);
  const userToken = events[0]?.token ?? '';
  const providers = await target.client('node').listProviders({ userToken });
  expect(providers.default_deposit_provider).toBe('mpesa');
  // The old seeded token of bob for this app was retired by the new approval.
  await expect(target.client('node').listProviders({ userToken: TOKENS.bob })).rejects.toMatchObject({
    code: 'application_not_authorized',
  });
});

test('a deposit result posted to webhook_url is read back through the status endpoint before the callback', async () => {
  target = await startServerTarget();
  const wallet = target.client('node');
  const seen: [TransactionEvent, TransactionContext][] = [];
  receiver = await startWebhookReceiver({
    verifyWith: wallet,
    onTransaction: (event, context) => void seen.push([event, context]),
  });

  const pending = await wallet.deposit(
    {
      reference_id: 'w-1',
      amount: 700,
      currency: 'KES',
      payment_provider: 'mpesa',
      webhook_url: receiver.url,
    },
    { userToken: TOKENS.bob },
  );
  target.sandbox.settle(pending.transaction_id, { status: 'completed' });
  await target.sandbox.webhooks.idle();

  expect(seen).toHaveLength(1);
  const [event, context] = seen[0] ?? [];
  expect(event).toMatchObject({ type: 'transaction', transaction_id: pending.transaction_id, amount: 700 });
  expect(context).toMatchObject({ verified: true });
  expect(context?.verified && context.status).toMatchObject({
    transaction_status: 'completed',
    amount: '700.00',
  });
});

test('when the callback fails the handler answers 500, the sandbox redelivers, and the event is processed once', async () => {
  target = await startServerTarget();
  let calls = 0;
  const processed: string[] = [];
  receiver = await startWebhookReceiver({
    onTransaction: (event) => {
      calls++;
      if (calls === 1) throw new Error('database briefly unavailable');
      processed.push(event.transaction_id);
    },
  });
  target.sandbox.updateMerchant('app_demo_shop', { depositWebhookUrl: receiver.url });

  const deposit = await target
    .client('node')
    .deposit({ reference_id: 'w-2', amount: 10, currency: 'KES' }, { userToken: TOKENS.alice });
  await target.sandbox.webhooks.idle();
  expect(processed).toEqual([]);
  // The sandbox retries a minute later on its clock, as a payment service would.
  target.sandbox.clock.advance(60_000);
  await target.sandbox.webhooks.idle();

  expect(processed).toEqual([deposit.transaction_id]);
  const [delivery] = target.sandbox.webhooks.deliveries();
  expect(delivery?.state).toBe('delivered');
  expect(delivery?.attempts.map((a) => a.status)).toEqual([500, 200]);
});
