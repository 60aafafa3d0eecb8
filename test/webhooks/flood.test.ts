import { afterEach, expect, test, vi } from 'vitest';
import { WalletClient } from '../../src/index.js';
import { createSandbox, type SandboxServer, startSandboxServer } from '../../src/testing/index.js';
import { createWebhookHandler, type WebhookHandler } from '../../src/webhooks/index.js';
import { NOT_FOUND_CAP } from '../../src/webhooks/read-gate.js';

let api: SandboxServer | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await api?.close();
  api = undefined;
});

/** Status reads a client sent over the wire: how many in all, and most at once. */
interface StatusReads {
  total: number;
  inFlight: number;
  peak: number;
}

/** A client of a sandbox on loopback whose `fetch` counts the status reads it sends. */
async function countedClient(options: { latencyMs?: number } = {}) {
  const sandbox = createSandbox();
  if (options.latencyMs)
    sandbox.faults.inject({ kind: 'latency', ms: options.latencyMs, times: Number.POSITIVE_INFINITY });
  api = await startSandboxServer({ sandbox, port: 0 });
  const reads: StatusReads = { total: 0, inFlight: 0, peak: 0 };
  const wallet = new WalletClient({
    apiKey: 'sk_sandbox_demo_shop',
    baseUrl: api.baseUrl,
    fetch: async (input, init) => {
      if (!String(input instanceof Request ? input.url : input).includes('/transactions/status/'))
        return globalThis.fetch(input, init);
      reads.total += 1;
      reads.inFlight += 1;
      reads.peak = Math.max(reads.peak, reads.inFlight);
      try {
        return await globalThis.fetch(input, init);
      } finally {
        reads.inFlight -= 1;
      }
    },
  });
  return { wallet, reads, sandbox };
}

const forged = (transactionId: string) => ({
  event: 'transaction',
  transaction_id: transactionId,
  transaction_status: 'completed',
  reference_id: 'attacker-order',
  amount: 1_000_000,
  currency: 'KES',
});

function post(handler: WebhookHandler, body: unknown): Promise<Response> {
  return handler(
    new Request('https://shop.example/wallet/webhooks', { method: 'POST', body: JSON.stringify(body) }),
  );
}

test('2,000 concurrent copies of one forged event make one status read, and copies during the not-found memory none', async () => {
  const { wallet, reads } = await countedClient();
  const handler = createWebhookHandler({ verifyWith: wallet, onTransaction: () => undefined });
  const answers = await Promise.all(Array.from({ length: 2_000 }, () => post(handler, forged('tx_forged'))));
  expect(reads.total).toBe(1);
  expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([503]));
  expect(await answers[1_999]?.json()).toMatchObject({ error: 'verification_failed' });

  const again = await Promise.all(Array.from({ length: 2_000 }, () => post(handler, forged('tx_forged'))));
  expect(reads.total).toBe(1);
  const retryAfter = Number(again[0]?.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(29);
  expect(retryAfter).toBeLessThanOrEqual(30);
  expect(await again[0]?.json()).toMatchObject({ error: 'verification_failed' });
  await wallet.close();
});

test('2,000 concurrent forged events with distinct ids make at most 16 status reads at once; the rest are answered 503 busy with Retry-After', async () => {
  const { wallet, reads } = await countedClient({ latencyMs: 20 });
  const handler = createWebhookHandler({ verifyWith: wallet, onTransaction: () => undefined });
  const answers = await Promise.all(
    Array.from({ length: 2_000 }, (_, index) => post(handler, forged(`tx_forged_${index}`))),
  );
  expect(reads.total).toBe(16);
  expect(reads.peak).toBe(16);
  const busy = answers.filter((answer) => answer.headers.get('retry-after') === '1');
  expect(busy).toHaveLength(2_000 - 16);
  expect(await busy[0]?.json()).toMatchObject({ error: 'busy' });
  expect(busy.every((answer) => answer.status === 503)).toBe(true);
  await wallet.close();
});

test('forged events in waves are read at most maxVerifications at once, and each wave beyond it answered busy unread', async () => {
  const { wallet, reads } = await countedClient({ latencyMs: 5 });
  const handler = createWebhookHandler({ verifyWith: wallet, maxVerifications: 4 });
  for (let wave = 0; wave < 20; wave += 1) {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) => post(handler, forged(`tx_forged_${wave}_${index}`))),
    );
    expect(answers.filter((answer) => answer.headers.get('retry-after') === '1')).toHaveLength(16);
  }
  expect(reads.peak).toBe(4);
  expect(reads.total).toBe(20 * 4);
  await wallet.close();
});

test('a payment on the client during a flood of 3,000 forged events is sent at once, beside at most 16 status reads', async () => {
  const { wallet, reads } = await countedClient({ latencyMs: 50 });
  const handler = createWebhookHandler({ verifyWith: wallet });
  const flood = Promise.all(
    Array.from({ length: 3_000 }, (_, index) => post(handler, forged(`tx_forged_${index}`))),
  );
  const readsWhenPaid = reads.inFlight;
  const payment = await wallet.withdraw({ email: 'bob@example.com', amount: 100, currency: 'KES' });
  await flood;
  expect(readsWhenPaid).toBeLessThanOrEqual(16);
  expect(reads.peak).toBe(16);
  expect(payment.transaction_id).toEqual(expect.any(String));
  await wallet.close();
});

test('concurrent deliveries of one genuine event share one read: one is processed, the others answered duplicate', async () => {
  const { wallet, reads, sandbox } = await countedClient();
  const processed: string[] = [];
  const handler = createWebhookHandler({
    verifyWith: wallet,
    onTransaction: (event) => void processed.push(event.transaction_id),
  });
  const deposit = await wallet.deposit(
    { reference_id: 'order-flood', amount: 700, currency: 'KES', payment_provider: 'mpesa' },
    { userToken: 'tok_sandbox_bob' },
  );
  sandbox.settle(deposit.transaction_id, { status: 'completed' });
  const event = {
    event: 'transaction',
    transaction_id: deposit.transaction_id,
    transaction_status: 'completed',
    reference_id: 'order-flood',
  };
  const answers = await Promise.all(Array.from({ length: 10 }, () => post(handler, event)));
  expect(reads.total).toBe(1);
  expect(processed).toEqual([deposit.transaction_id]);
  const bodies = await Promise.all(answers.map((answer) => answer.json()));
  expect(bodies.filter((body) => body.duplicate === true)).toHaveLength(9);
  expect(answers.every((answer) => answer.status === 200)).toBe(true);
  await wallet.close();
});

test('a remembered transaction_not_found is read again once notFoundMs has passed, and notFoundMs 0 remembers none', async () => {
  const { wallet, reads } = await countedClient();
  const remembering = createWebhookHandler({ verifyWith: wallet, notFoundMs: 5_000 });
  await post(remembering, forged('tx_forged'));
  await post(remembering, forged('tx_forged'));
  expect(reads.total).toBe(1);
  const now = Date.now();
  vi.spyOn(Date, 'now').mockReturnValue(now + 5_001);
  await post(remembering, forged('tx_forged'));
  expect(reads.total).toBe(2);

  const forgetting = createWebhookHandler({ verifyWith: wallet, notFoundMs: 0 });
  await post(forgetting, forged('tx_forged'));
  await post(forgetting, forged('tx_forged'));
  expect(reads.total).toBe(4);
  await wallet.close();
});

test(`at most ${NOT_FOUND_CAP} not-found transactions are remembered: the oldest is forgotten first`, async () => {
  let read = 0;
  const notFound = Object.assign(new Error('Transaction not found'), { code: 'transaction_not_found' });
  const handler = createWebhookHandler({
    verifyWith: {
      getTransaction: async () => {
        read += 1;
        throw notFound;
      },
    },
  });
  for (let index = 0; index <= NOT_FOUND_CAP; index += 1) await post(handler, forged(`tx_${index}`));
  expect(read).toBe(NOT_FOUND_CAP + 1);
  await post(handler, forged(`tx_${NOT_FOUND_CAP}`));
  await post(handler, forged('tx_1'));
  expect(read).toBe(NOT_FOUND_CAP + 1);
  await post(handler, forged('tx_0'));
  expect(read).toBe(NOT_FOUND_CAP + 2);
});

test('a read-back that fails otherwise is not remembered, and a reader that throws fails its delivery alone', async () => {
  let read = 0;
  const handler = createWebhookHandler({
    verifyWith: {
      getTransaction: () => {
        read += 1;
        throw Object.assign(new Error('Service unavailable'), { code: 'internal_server_error' });
      },
    },
  });
  const first = await post(handler, forged('tx_a'));
  const second = await post(handler, forged('tx_a'));
  expect([first.status, second.status, read]).toEqual([503, 503, 2]);
  expect(first.headers.get('retry-after')).toBeNull();
});

test.each([
  ['maxVerifications', 0],
  ['maxVerifications', 1.5],
  ['maxVerifications', '16'],
  ['maxVerifications', 65_536],
  ['notFoundMs', -1],
  ['notFoundMs', 3_600_001],
  ['notFoundMs', Number.NaN],
])('%s %s is refused at creation with a WalletConfigError naming it', (name, value) => {
  expect(() => createWebhookHandler({ [name]: value })).toThrow(
    expect.objectContaining({
      name: 'WalletConfigError',
      option: name,
      message: expect.stringMatching(new RegExp(`^${name}: must be a whole number from`)),
    }),
  );
});
