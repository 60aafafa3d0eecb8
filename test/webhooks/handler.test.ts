import { describe, expect, test, vi } from 'vitest';
import { WalletApiError, WalletConfigError } from '../../src/errors.js';
import type { TransactionResult } from '../../src/schemas/responses.js';
import {
  createMemoryDedupeStore,
  createWebhookHandler,
  type DedupeClaim,
  type TransactionContext,
  type TransactionEvent,
  type TransactionReader,
  type WebhookDedupeStore,
} from '../../src/webhooks/index.js';
import {
  completedBody as completed,
  notConfirmedError,
  post,
  statusOf,
  WEBHOOK_TOKEN as TOKEN,
  userAuthorizedBody as userAuthorized,
} from '../helpers/webhook-fixtures.js';

describe('createWebhookHandler', () => {
  test('answers 200 {received: true} once the callback has resolved', async () => {
    const seen: string[] = [];
    const handler = createWebhookHandler({
      onTransaction: async (event) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        seen.push(event.transaction_id);
      },
    });
    const response = await handler(post(completed));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ received: true });
    expect(seen).toEqual(['tx_1']);
  });

  test('passes an unverified transaction event with the request', async () => {
    const onTransaction = vi.fn();
    const request = post(completed);
    await createWebhookHandler({ onTransaction })(request);
    expect(onTransaction).toHaveBeenCalledWith(
      { ...completed, type: 'transaction' },
      { request, verified: false },
    );
  });

  test('an event type nothing handles is acknowledged, ignored, and reported once at warn without the token', async () => {
    const warn = vi.fn();
    const handler = createWebhookHandler({ onTransaction: vi.fn(), logger: { warn } });
    const response = await handler(post(userAuthorized));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true, ignored: true });
    await handler(post({ ...userAuthorized, token: 'another-token' }));
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toMatch(/user_authorized webhooks ignored: nothing handles them/);
    expect(JSON.stringify(warn.mock.calls)).not.toContain(TOKEN);
    expect(JSON.stringify(warn.mock.calls)).not.toContain(userAuthorized.user_email);
  });

  test('a transaction event with neither verifyWith nor onTransaction is reported once at warn', async () => {
    const warn = vi.fn();
    const handler = createWebhookHandler({ onUserAuthorized: vi.fn(), logger: { warn } });
    expect(await (await handler(post(completed))).json()).toEqual({ received: true, ignored: true });
    await handler(post(completed));
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toMatch(/transaction webhooks ignored/);
  });

  test('with verifyWith and no onTransaction, a transaction event is read back before it is answered', async () => {
    const reads: string[] = [];
    const reader: TransactionReader = {
      getTransaction: async (id) => {
        reads.push(id);
        return statusOf();
      },
    };
    const handler = createWebhookHandler({ verifyWith: reader, logger: { warn: vi.fn() } });
    const response = await handler(post(completed));
    expect(await response.json()).toEqual({ received: true });
    expect(reads).toEqual([completed.transaction_id]);
    expect(await (await handler(post(completed))).json()).toEqual({ received: true, duplicate: true });
  });

  test('with verifyWith and no onTransaction, an event the status endpoint contradicts is answered 503, never ignored', async () => {
    const reader: TransactionReader = {
      getTransaction: async () => statusOf({ transaction_status: 'pending' }),
    };
    const response = await createWebhookHandler({ verifyWith: reader })(post(completed));
    expect(response.status).toBe(503);
    expect((await response.json()).error).toBe('not_confirmed');
  });

  test('a logger that is not an object is refused at creation, naming logger', () => {
    expect(() => createWebhookHandler({ logger: 'console' as never })).toThrow(/logger/);
  });

  test.each(['GET', 'PUT', 'DELETE', 'HEAD'])('answers %s with 405 and Allow: POST', async (method) => {
    const onTransaction = vi.fn();
    const response = await createWebhookHandler({ onTransaction })(
      new Request('https://x.test/hook', { method }),
    );
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(onTransaction).not.toHaveBeenCalled();
  });

  test.each([
    ['not JSON', '{oops', 'invalid_json'],
    ['an unknown event', { event: 'refund' }, 'unknown_event'],
    ['a missing field', { event: 'transaction', transaction_id: 'tx' }, 'invalid_fields'],
    ['an array', [], 'invalid_body'],
  ])('answers 400 with the reason for %s', async (_kind, body, reason) => {
    const onError = vi.fn();
    const onTransaction = vi.fn();
    const response = await createWebhookHandler({ onTransaction, onError })(post(body));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: reason, message: expect.any(String) });
    expect(onTransaction).not.toHaveBeenCalled();
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ reason }), { stage: 'body' });
  });

  test('a bad user_authorized body is refused without echoing the token', async () => {
    const response = await createWebhookHandler({ onUserAuthorized: vi.fn() })(
      post({ ...userAuthorized, user_email: 'nope' }),
    );
    expect(response.status).toBe(400);
    expect(await response.text()).not.toContain(TOKEN);
  });

  test('answers 413 for a declared Content-Length over the limit without reading the body', async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(1024));
      },
    });
    const request = new Request('https://x.test/hook', {
      method: 'POST',
      body,
      headers: { 'content-length': '1000000' },
      duplex: 'half',
    } as RequestInit);
    const response = await createWebhookHandler({ onTransaction: vi.fn(), maxBytes: 2048 })(request);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: 'too_large' });
    expect(pulled).toBeLessThanOrEqual(1);
  });

  test('stops reading a streamed body as soon as it passes the limit', async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(1024));
      },
    });
    const request = new Request('https://x.test/hook', {
      method: 'POST',
      body: endless,
      duplex: 'half',
    } as RequestInit);
    const response = await createWebhookHandler({ onTransaction: vi.fn(), maxBytes: 4096 })(request);
    expect(response.status).toBe(413);
    expect(pulled).toBeLessThan(10);
  });

  test('answers 500 with a generic message when the callback throws', async () => {
    const onError = vi.fn();
    const handler = createWebhookHandler({
      onUserAuthorized: () => {
        throw new Error(`database rejected token ${TOKEN}`);
      },
      onError,
    });
    const response = await handler(post(userAuthorized));
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain('database');
    expect(onError).toHaveBeenCalledWith(expect.any(Error), expect.objectContaining({ stage: 'callback' }));
  });

  test('an onError that throws does not change the answer', async () => {
    const handler = createWebhookHandler({
      onTransaction: () => Promise.reject(new Error('down')),
      onError: () => {
        throw new Error('logger broken');
      },
    });
    expect((await handler(post(completed))).status).toBe(500);
  });

  test('refuses options of the wrong type at creation', () => {
    expect(() => createWebhookHandler({ onTransaction: 'nope' as never })).toThrow(WalletConfigError);
    expect(() => createWebhookHandler({ maxBytes: -1 })).toThrow(WalletConfigError);
    expect(() => createMemoryDedupeStore({ maxKeys: 0 })).toThrow(WalletConfigError);
  });

  describe('dedupe', () => {
    test('the same transaction event delivered twice reaches the callback once', async () => {
      const onTransaction = vi.fn();
      const handler = createWebhookHandler({ onTransaction });
      const first = await handler(post(completed));
      const second = await handler(post(completed));
      expect([first.status, second.status]).toEqual([200, 200]);
      expect(await second.json()).toEqual({ received: true, duplicate: true });
      expect(onTransaction).toHaveBeenCalledTimes(1);
    });

    test('concurrent duplicates reach the callback once', async () => {
      const onTransaction = vi.fn(() => new Promise<void>((resolve) => setTimeout(resolve, 10)));
      const handler = createWebhookHandler({ onTransaction });
      await Promise.all(Array.from({ length: 5 }, () => handler(post(completed))));
      expect(onTransaction).toHaveBeenCalledTimes(1);
    });

    test('each new status of a transaction is processed', async () => {
      const onTransaction = vi.fn();
      const handler = createWebhookHandler({ onTransaction });
      await handler(post({ ...completed, transaction_status: 'pending' }));
      await handler(post(completed));
      expect(onTransaction).toHaveBeenCalledTimes(2);
    });

    test('after the callback throws, the redelivery is processed', async () => {
      const onUserAuthorized = vi
        .fn()
        .mockRejectedValueOnce(new Error('db down'))
        .mockResolvedValueOnce(undefined);
      const handler = createWebhookHandler({ onUserAuthorized });
      expect((await handler(post(userAuthorized))).status).toBe(500);
      expect((await handler(post(userAuthorized))).status).toBe(200);
      expect((await handler(post(userAuthorized))).status).toBe(200);
      expect(onUserAuthorized).toHaveBeenCalledTimes(2);
    });

    test('a shared store sees hashed user_authorized keys, never the raw token', async () => {
      const claimed: string[] = [];
      const store: WebhookDedupeStore = {
        claim: async (key) => {
          claimed.push(key);
          return true;
        },
      };
      await createWebhookHandler({ onUserAuthorized: vi.fn(), onTransaction: vi.fn(), dedupe: store })(
        post(userAuthorized),
      );
      await createWebhookHandler({ onTransaction: vi.fn(), dedupe: store })(post(completed));
      expect(claimed[0]).toMatch(/^user_authorized:[A-Za-z0-9+/]{43}=$/);
      expect(claimed[0]).not.toContain(TOKEN);
      expect(claimed[1]).toBe('transaction:tx_1:completed');
    });

    test('a failing store answers 500 so the service retries', async () => {
      const onTransaction = vi.fn();
      const store = { claim: () => Promise.reject(new Error('redis down')) };
      const response = await createWebhookHandler({ onTransaction, dedupe: store })(post(completed));
      expect(response.status).toBe(500);
      expect(onTransaction).not.toHaveBeenCalled();
    });

    test('dedupe: false delivers every copy', async () => {
      const onTransaction = vi.fn();
      const handler = createWebhookHandler({ onTransaction, dedupe: false });
      await handler(post(completed));
      await handler(post(completed));
      expect(onTransaction).toHaveBeenCalledTimes(2);
    });

    test('the memory store forgets the oldest key beyond maxKeys', () => {
      const store = createMemoryDedupeStore({ maxKeys: 2 });
      const outcome = (key: string) => (store.claim(key, 60_000) as DedupeClaim).outcome;
      expect([outcome('a'), outcome('b'), outcome('a'), outcome('c')]).toEqual([
        'claimed',
        'claimed',
        'in_progress',
        'claimed',
      ]);
      expect(outcome('a')).toBe('claimed');
      expect(outcome('c')).toBe('in_progress');
    });
  });

  describe('verifyWith', () => {
    function readerAnswering(answer: () => Promise<TransactionResult>) {
      const getTransaction = vi.fn<TransactionReader['getTransaction']>(answer);
      return { getTransaction };
    }

    async function deliver(reader: TransactionReader, body: unknown = completed) {
      const calls: [TransactionEvent, TransactionContext][] = [];
      const handler = createWebhookHandler({
        verifyWith: reader,
        onTransaction: (event, context) => {
          calls.push([event, context]);
        },
      });
      return { response: await handler(post(body)), calls, handler };
    }

    test('an agreeing read-back gives the callback the authoritative status', async () => {
      const reader = readerAnswering(async () => statusOf());
      const { response, calls } = await deliver(reader);
      expect(response.status).toBe(200);
      expect(reader.getTransaction).toHaveBeenCalledWith('tx_1', { readFor: 'webhook' });
      expect(calls).toHaveLength(1);
      expect(calls[0]?.[1]).toEqual({ request: expect.any(Request), verified: true, status: statusOf() });
    });

    test('amounts agree numerically and currencies without regard to case', async () => {
      const reader = readerAnswering(async () => statusOf({ amount: '100.00', currency: 'kes' }));
      const { response, calls } = await deliver(reader, { ...completed, amount: '1e2' });
      expect(response.status).toBe(200);
      expect(calls).toHaveLength(1);
    });

    test('a disagreeing event answers 503 not_confirmed, never reaches the callback, and names each field to onError', async () => {
      const reader = readerAnswering(async () => statusOf({ transaction_status: 'pending', amount: '90' }));
      const onError = vi.fn();
      const onTransaction = vi.fn();
      const handler = createWebhookHandler({ verifyWith: reader, onTransaction, onError });

      const response = await handler(post(completed));

      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ error: 'not_confirmed' });
      expect(onTransaction).not.toHaveBeenCalled();
      expect(onError).toHaveBeenCalledWith(notConfirmedError('transaction_status', 'amount'), {
        stage: 'verify',
        event: expect.objectContaining({ transaction_id: 'tx_1' }),
      });
    });

    test.each([
      ['reference_id', { reference_id: 'attacker-order' }],
      ['amount', { amount: 1 }],
      ['currency', { currency: 'USD' }],
    ])(
      'a forged event with another %s does not use up the dedupe key of the verified change',
      async (_field, forgery) => {
        const reader = readerAnswering(async () => statusOf());
        const calls: [TransactionEvent, TransactionContext][] = [];
        const handler = createWebhookHandler({
          verifyWith: reader,
          onTransaction: (event, context) => void calls.push([event, context]),
        });

        const forged = await handler(post({ ...completed, ...forgery }));
        const genuine = await handler(post(completed));
        const redelivered = await handler(post(completed));

        expect([forged.status, genuine.status, redelivered.status]).toEqual([503, 200, 200]);
        expect(await redelivered.json()).toMatchObject({ duplicate: true });
        expect(calls).toHaveLength(1);
        expect(calls[0]?.[0]).toMatchObject(completed);
      },
    );

    test('a forged final status before the real change is refused, and the real change is processed', async () => {
      let actual: TransactionResult['transaction_status'] = 'pending';
      const reader = readerAnswering(async () => statusOf({ transaction_status: actual }));
      const seen: string[] = [];
      const handler = createWebhookHandler({
        verifyWith: reader,
        onTransaction: (_event, context) => {
          if (context.verified) seen.push(context.status.transaction_status);
        },
      });
      const forged = await handler(post(completed)); // the transaction is still pending
      actual = 'completed';
      await handler(post(completed)); // the real one
      expect(forged.status).toBe(503);
      expect(seen).toEqual(['completed']);
    });

    test('a read-back about another transaction is a disagreement, not a confirmation', async () => {
      const reader = readerAnswering(async () => statusOf({ transaction_id: 'tx_2' }));
      const { response, calls } = await deliver(reader);
      expect(response.status).toBe(503);
      expect(calls).toEqual([]);
    });

    test('a failing read-back answers 503 and does not call the callback', async () => {
      const reader = readerAnswering(() =>
        Promise.reject(
          new WalletApiError({
            code: 'internal_server_error',
            message: 'internal server error',
            status: 500,
            endpoint: 'status',
            body: {},
          }),
        ),
      );
      const onError = vi.fn();
      const onTransaction = vi.fn();
      const handler = createWebhookHandler({ verifyWith: reader, onTransaction, onError });
      const response = await handler(post(completed));
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ error: 'verification_failed' });
      expect(onTransaction).not.toHaveBeenCalled();
      expect(onError).toHaveBeenCalledWith(
        expect.any(WalletApiError),
        expect.objectContaining({ stage: 'verify' }),
      );

      reader.getTransaction.mockResolvedValueOnce(statusOf());
      expect((await handler(post(completed))).status).toBe(200);
      expect(onTransaction).toHaveBeenCalledTimes(1);
    });

    test('user_authorized events are not read back', async () => {
      const reader = readerAnswering(async () => statusOf());
      const onUserAuthorized = vi.fn();
      await createWebhookHandler({ verifyWith: reader, onUserAuthorized })(post(userAuthorized));
      expect(reader.getTransaction).not.toHaveBeenCalled();
      expect(onUserAuthorized).toHaveBeenCalledTimes(1);
    });
  });
});

describe('dedupe leases', () => {
  test('a delivery while the callback runs is answered 503 in_progress; after it, duplicate', async () => {
    let finish = () => {};
    const onTransaction = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const handler = createWebhookHandler({ onTransaction, leaseMs: 30_000 });
    const first = handler(post(completed));
    await vi.waitFor(() => expect(onTransaction).toHaveBeenCalledTimes(1));
    const meanwhile = await handler(post(completed));
    expect(meanwhile.status).toBe(503);
    expect(meanwhile.headers.get('retry-after')).toBe('30');
    expect(await meanwhile.json()).toMatchObject({ error: 'in_progress' });
    finish();
    expect((await first).status).toBe(200);
    expect(await (await handler(post(completed))).json()).toEqual({ received: true, duplicate: true });
    expect(onTransaction).toHaveBeenCalledTimes(1);
  });

  test('a callback that never ends (its process died) gives the event to a delivery after the lease', async () => {
    const dedupe = createMemoryDedupeStore();
    const dying = createWebhookHandler({ dedupe, leaseMs: 50, onTransaction: () => new Promise(() => {}) });
    void dying(post(completed));
    const onTransaction = vi.fn();
    const survivor = createWebhookHandler({ dedupe, leaseMs: 50, onTransaction });
    await vi.waitFor(async () => expect((await survivor(post(completed))).status).toBe(200), {
      timeout: 5_000,
      interval: 20,
    });
    expect(onTransaction).toHaveBeenCalledTimes(1);
  });

  test('a store of the former boolean interface still deduplicates, without a lease', async () => {
    const seen = new Set<string>();
    const onTransaction = vi.fn();
    const handler = createWebhookHandler({
      onTransaction,
      dedupe: { claim: (key) => !seen.has(key) && Boolean(seen.add(key)) },
    });
    expect((await handler(post(completed))).status).toBe(200);
    expect(await (await handler(post(completed))).json()).toEqual({ received: true, duplicate: true });
    expect(onTransaction).toHaveBeenCalledTimes(1);
  });

  test('a bad leaseMs is refused at creation, naming it', () => {
    for (const leaseMs of [0, -1, Number.NaN, 86_400_001]) {
      expect(() => createWebhookHandler({ leaseMs })).toThrow(/^leaseMs: must be a number of milliseconds/);
    }
  });
});
