import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { defaultSandboxSeed } from '../../src/testing/index.js';
import {
  ALICE,
  DEMO_KEY,
  deposit,
  type Receiver,
  type Running,
  runSandbox,
  startPendingDeposit,
  startReceiver,
} from './helpers.js';

const C2B = '/merchants/transactions/c2b';

let receiver: Receiver;
let run: Running;
beforeEach(async () => {
  receiver = await startReceiver();
  const seed = defaultSandboxSeed();
  seed.merchants[0]!.authWebhookUrl = `${receiver.url}/auth`;
  seed.merchants[0]!.depositWebhookUrl = `${receiver.url}/deposits`;
  run = await runSandbox(seed, { webhooks: { attempts: 3, backoffMs: 5, timeoutMs: 1000 } });
});
afterEach(async () => {
  await run.close();
  await receiver.close();
});

describe('webhook deliveries', () => {
  test('authorize sends user_authorized to the merchant’s auth webhook', async () => {
    const token = run.sandbox.authorize({ email: 'alice@example.com', appId: 'app_demo_shop' });
    await run.sandbox.webhooks.idle();
    expect(receiver.received).toEqual([
      {
        path: '/hooks/auth',
        body: { event: 'user_authorized', user_email: 'alice@example.com', token },
        headers: expect.objectContaining({ 'content-type': 'application/json' }),
      },
    ]);
  });

  test('a completed deposit sends its result to the merchant’s deposit webhook', async () => {
    const answer = await run.api({
      path: C2B,
      key: DEMO_KEY,
      token: ALICE,
      body: deposit({ reference_id: 'wh-1', amount: 12.5 }),
    });
    await run.sandbox.webhooks.idle();
    expect(receiver.received.map((r) => [r.path, r.body])).toEqual([
      [
        '/hooks/deposits',
        {
          event: 'transaction',
          transaction_id: (answer.body as { transaction_id: string }).transaction_id,
          reference_id: 'wh-1',
          transaction_status: 'completed',
          amount: 12.5,
          currency: 'KES',
        },
      ],
    ]);
  });

  test('a pending deposit sends its result to the request’s webhook_url when it settles, with the failure reason', async () => {
    const { id } = await startPendingDeposit(run, {
      reference_id: 'wh-2',
      webhook_url: `${receiver.url}/own`,
    });
    await run.sandbox.webhooks.idle();
    expect(receiver.received).toHaveLength(0);
    run.sandbox.settle(id, { status: 'failed', failure_reason: 'timeout on phone' });
    const delivery = await run.sandbox.webhooks.waitFor((d) => d.event.event === 'transaction');
    expect(delivery).toMatchObject({ url: `${receiver.url}/own`, state: 'delivered' });
    expect(receiver.received[0]?.body).toMatchObject({
      transaction_status: 'failed',
      failure_reason: 'timeout on phone',
    });
  });

  test('a withdrawal sends no webhook', async () => {
    await run.api({
      path: '/merchants/transactions/b2c',
      key: DEMO_KEY,
      body: { email: 'bob@example.com', amount: 5, currency: 'KES' },
    });
    await run.sandbox.webhooks.idle();
    expect(run.sandbox.webhooks.deliveries()).toHaveLength(0);
  });

  test('a failing receiver is retried with backoff and every attempt is recorded', async () => {
    receiver.queue.push(500, 503);
    run.sandbox.authorize({ email: 'bob@example.com', appId: 'app_demo_shop' });
    await run.sandbox.webhooks.idle();
    const [delivery] = run.sandbox.webhooks.deliveries();
    expect(delivery?.state).toBe('delivered');
    expect(delivery?.attempts.map((a) => a.status)).toEqual([500, 503, 200]);
    expect(receiver.received).toHaveLength(3);
  });

  test('a delivery fails for good after the configured attempts; redirects are not followed', async () => {
    receiver.queue.push(302, 302, 302);
    run.sandbox.authorize({ email: 'bob@example.com', appId: 'app_demo_shop' });
    await run.sandbox.webhooks.idle();
    const [delivery] = run.sandbox.webhooks.deliveries();
    expect(delivery?.state).toBe('failed');
    expect(delivery?.attempts.map((a) => a.status)).toEqual([302, 302, 302]);
  });

  test('an unreachable receiver records the connection error of each attempt', async () => {
    const port = Number(new URL(receiver.url).port);
    await receiver.close();
    run.sandbox.updateMerchant('app_demo_shop', { authWebhookUrl: `http://127.0.0.1:${port}/gone` });
    run.sandbox.authorize({ email: 'bob@example.com', appId: 'app_demo_shop' });
    const delivery = await run.sandbox.webhooks.waitFor(() => true);
    expect(delivery.state).toBe('failed');
    expect(delivery.attempts).toHaveLength(3);
    expect(delivery.attempts.every((a) => a.status === undefined && typeof a.error === 'string')).toBe(true);
    receiver = await startReceiver();
  });

  test('waitFor rejects when nothing matches in time', async () => {
    await expect(run.sandbox.webhooks.waitFor(() => true, { timeoutMs: 20 })).rejects.toThrow(/within 20 ms/);
  });

  test('without a webhook URL nothing is sent', async () => {
    run.sandbox.updateMerchant('app_demo_shop', { depositWebhookUrl: null });
    await run.api({ path: C2B, key: DEMO_KEY, token: ALICE, body: deposit() });
    await run.sandbox.webhooks.idle();
    expect(run.sandbox.webhooks.deliveries()).toHaveLength(0);
  });
});
