import { getEventListeners } from 'node:events';
import { beforeEach, describe, expect, test, vi } from 'vitest';
import { WalletAbortError, WalletRequestValidationError } from '../../src/errors.js';
import type { TransactionEventLike, TransactionEventSource } from '../../src/polling/event-source.js';
import { waitForTransaction, watchTransaction } from '../../src/polling/poll.js';
import { createTransactionEvents } from '../../src/polling/transaction-events.js';
import type { TransactionResult } from '../../src/schemas/responses.js';
import { createWebhookHandler } from '../../src/webhooks/handler.js';
import { fakeClient, ID, outcome, txn, useFakeTimers } from '../helpers/poll-fakes.js';

const EVENT = { type: 'transaction', transaction_id: ID, transaction_status: 'completed' } as const;
/** Slow polling, so anything that ends a wait within a second came from the event source. */
const SLOW = { initialDelayMs: 60_000, maxDelayMs: 60_000 };

beforeEach(() => {
  // Full jitter draws each pause from [0, 60 s): left to Math.random, about one draw in sixty falls
  // within the second a test lets pass, and the poll it starts looks like a read an event asked for.
  // Pinned, every pause under SLOW is 30 s. The setup file restores Math.random after each test.
  vi.spyOn(Math, 'random').mockReturnValue(0.5);
});

/** An async iterable fed by `push`, recording whether its iterator was closed. */
function eventQueue() {
  const queued: TransactionEventLike[] = [];
  let wake: (() => void) | undefined;
  const state = { returned: 0 };
  const iterable: AsyncIterable<TransactionEventLike> = {
    [Symbol.asyncIterator]: () => ({
      async next() {
        while (queued.length === 0) await new Promise<void>((resolve) => (wake = resolve));
        return { done: false, value: queued.shift() as TransactionEventLike };
      },
      async return() {
        state.returned++;
        wake?.();
        return { done: true, value: undefined };
      },
    }),
  };
  return {
    iterable,
    state,
    push(event: TransactionEventLike) {
      queued.push(event);
      wake?.();
    },
  };
}

/** Wraps a hub so a test can see how many subscriptions are open. */
function countingSubscriptions(hub: ReturnType<typeof createTransactionEvents>) {
  let open = 0;
  return {
    open: () => open,
    subscribe(listener: Parameters<typeof hub.subscribe>[0]) {
      open++;
      const stop = hub.subscribe(listener);
      return () => {
        open--;
        stop();
      };
    },
  };
}

describe('waitForTransaction with an event source', () => {
  useFakeTimers();

  test('a verified final event ends the wait with the status the handler read back, without another read', async () => {
    const client = fakeClient(txn('pending'));
    const hub = createTransactionEvents();
    const events = countingSubscriptions(hub);
    const result = outcome(waitForTransaction(client, ID, { ...SLOW, events }));
    await vi.advanceTimersByTimeAsync(0);

    const confirmed = txn('completed', { date_completed: 20260101120000 });
    hub.publish(EVENT, { verified: true, status: confirmed });
    await vi.advanceTimersByTimeAsync(0);

    expect(result.value).toBe(confirmed);
    expect(client.calls).toHaveLength(1);
    expect(events.open()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  test('an unverified event is never taken at its word: the wait reads at once and goes on while the read says pending', async () => {
    const client = fakeClient(txn('pending'), txn('pending'), txn('completed'));
    const events = createTransactionEvents();
    const result = outcome(waitForTransaction(client, ID, { ...SLOW, events }));
    await vi.advanceTimersByTimeAsync(0);

    events.publish(EVENT, { verified: false });
    await vi.advanceTimersByTimeAsync(0);
    expect(client.calls).toHaveLength(2);
    expect(result.settled).toBe(false);

    events.publish(EVENT);
    await vi.advanceTimersByTimeAsync(0);
    expect(client.calls).toHaveLength(3);
    expect(result.value?.transaction_status).toBe('completed');
    expect(vi.getTimerCount()).toBe(0);
  });

  test('events about other transactions, and verified statuses that are not final or not this one, start no read', async () => {
    const client = fakeClient(txn('pending'));
    const events = createTransactionEvents();
    const result = outcome(waitForTransaction(client, ID, { ...SLOW, events }));
    await vi.advanceTimersByTimeAsync(0);

    events.publish({ ...EVENT, transaction_id: 'txn_other' });
    events.publish({ ...EVENT, transaction_id: 'txn_other' }, { verified: true, status: txn('completed') });
    events.publish(EVENT, { verified: true, status: txn('pending') });
    events.publish(EVENT, { verified: true, status: txn('completed', { transaction_id: 'txn_other' }) });
    await vi.advanceTimersByTimeAsync(1_000);

    expect(client.calls).toHaveLength(1);
    expect(result.settled).toBe(false);
  });

  test('fields of a forged body that look like verification do not count: the wait reads the status instead', async () => {
    const client = fakeClient(txn('pending'));
    const queue = eventQueue();
    const result = outcome(waitForTransaction(client, ID, { ...SLOW, events: queue.iterable }));
    await vi.advanceTimersByTimeAsync(0);

    const forged = { ...EVENT, verified: true, status: txn('completed'), context: { verified: true } };
    queue.push(forged as TransactionEventLike);
    await vi.advanceTimersByTimeAsync(0);

    expect(client.calls).toHaveLength(2);
    expect(result.settled).toBe(false);
  });

  test('events arriving during a read cost exactly one more read, made as soon as that read answers', async () => {
    let answer: ((result: TransactionResult) => void) | undefined;
    const calls: number[] = [];
    const client = {
      getTransaction: () => {
        calls.push(Date.now());
        return calls.length === 2
          ? new Promise<TransactionResult>((resolve) => (answer = resolve))
          : Promise.resolve(txn(calls.length >= 3 ? 'completed' : 'pending'));
      },
    };
    const events = createTransactionEvents();
    const result = outcome(waitForTransaction(client, ID, { ...SLOW, events }));
    await vi.advanceTimersByTimeAsync(0);
    events.publish(EVENT);
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(2);

    for (let i = 0; i < 5; i++) events.publish(EVENT);
    answer?.(txn('pending'));
    await vi.advanceTimersByTimeAsync(0);

    expect(calls).toHaveLength(3);
    expect(result.value?.transaction_status).toBe('completed');
  });

  test('a verified event during a hung read ends the wait and aborts that read', async () => {
    const client = fakeClient('hang');
    const events = createTransactionEvents();
    const result = outcome(waitForTransaction(client, ID, { events }));
    await vi.advanceTimersByTimeAsync(0);

    events.publish(EVENT, { verified: true, status: txn('failed') });
    await vi.advanceTimersByTimeAsync(0);

    expect(result.value?.transaction_status).toBe('failed');
    expect(client.calls[0]?.options?.signal?.aborted).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  test("an EventTarget's 'transaction' event wakes the wait, and its listener is removed once the wait ends", async () => {
    const client = fakeClient(txn('pending'), txn('completed'));
    const target = new EventTarget();
    const result = outcome(waitForTransaction(client, ID, { ...SLOW, events: target }));
    await vi.advanceTimersByTimeAsync(0);
    expect(getEventListeners(target, 'transaction')).toHaveLength(1);

    target.dispatchEvent(new CustomEvent('transaction', { detail: EVENT }));
    await vi.advanceTimersByTimeAsync(0);

    expect(client.calls).toHaveLength(2);
    expect(result.value?.transaction_status).toBe('completed');
    expect(getEventListeners(target, 'transaction')).toHaveLength(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  test("an AsyncIterable's events wake the wait, and its iterator is closed once the wait ends", async () => {
    const client = fakeClient(txn('pending'), txn('completed'));
    const queue = eventQueue();
    const result = outcome(waitForTransaction(client, ID, { ...SLOW, events: queue.iterable }));
    await vi.advanceTimersByTimeAsync(0);

    queue.push({ transaction_id: ID });
    await vi.advanceTimersByTimeAsync(0);

    expect(result.value?.transaction_status).toBe('completed');
    expect(queue.state.returned).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  test('aborting a wait leaves no subscription, listener, open iterator or timer behind', async () => {
    const controller = new AbortController();
    const events = createTransactionEvents();
    const subscriptions = countingSubscriptions(events);
    const target = new EventTarget();
    const queue = eventQueue();
    const client = fakeClient(txn('pending'));
    const waits = [subscriptions, target, queue.iterable].map((source: TransactionEventSource) =>
      outcome(waitForTransaction(client, ID, { ...SLOW, events: source, signal: controller.signal })),
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(client.calls).toHaveLength(3);
    expect(subscriptions.open()).toBe(1);

    controller.abort();
    await vi.advanceTimersByTimeAsync(0);

    for (const wait of waits) expect(wait.error).toBeInstanceOf(WalletAbortError);
    expect(subscriptions.open()).toBe(0);
    expect(getEventListeners(target, 'transaction')).toHaveLength(0);
    expect(queue.state.returned).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
    // The hub has no listener left: publishing reaches nobody and starts no read.
    events.publish(EVENT);
    await vi.advanceTimersByTimeAsync(0);
    expect(client.calls).toHaveLength(3);
  });

  test('an RxJS-style subscription whose subscribe returns { unsubscribe } is unsubscribed once the wait ends', async () => {
    const unsubscribe = vi.fn();
    let listener: ((event: TransactionEventLike, context?: { verified: boolean }) => void) | undefined;
    const subject = {
      subscribe(next: typeof listener) {
        listener = next;
        return { unsubscribe };
      },
    };
    const client = fakeClient(txn('pending'));
    const result = outcome(waitForTransaction(client, ID, { ...SLOW, events: subject }));
    await vi.advanceTimersByTimeAsync(0);

    listener?.(EVENT, { verified: true, status: txn('completed') } as { verified: boolean });
    await vi.advanceTimersByTimeAsync(0);

    expect(result.value?.transaction_status).toBe('completed');
    expect(unsubscribe).toHaveBeenCalledOnce();
  });

  test('watchTransaction yields the verified final status from the event source and then ends', async () => {
    const client = fakeClient(txn('pending'));
    const events = createTransactionEvents();
    const watch = watchTransaction(client, ID, { ...SLOW, events });
    const first = await watch.next();
    expect(first.value?.transaction_status).toBe('pending');

    // Published while the loop body runs: delivered by the next call.
    events.publish(EVENT, { verified: true, status: txn('completed') });
    const second = outcome(watch.next());
    await vi.advanceTimersByTimeAsync(0);

    expect(second.value).toEqual({ done: false, value: txn('completed') });
    expect(await watch.next()).toEqual({ done: true, value: undefined });
    expect(client.calls).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('the events option is checked before any read', () => {
  test.each([
    ['a string', 'events'],
    ['a plain object', {}],
    ['a function', () => undefined],
  ])('%s is refused with a WalletRequestValidationError naming options.events', async (_, events) => {
    const client = fakeClient(txn('completed'));
    const error = await waitForTransaction(client, ID, { events: events as never }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(WalletRequestValidationError);
    expect((error as WalletRequestValidationError).issues).toEqual([
      { path: 'options.events', message: expect.stringContaining('EventTarget') },
    ]);
    expect(client.calls).toHaveLength(0);
  });

  test('a subscription that throws rejects the wait with that error and makes no read', async () => {
    const client = fakeClient(txn('completed'));
    const failure = new Error('bus is down');
    const events = {
      subscribe: () => {
        throw failure;
      },
    };

    await expect(waitForTransaction(client, ID, { events })).rejects.toBe(failure);
    expect(client.calls).toHaveLength(0);
  });

  test('a subscribe that returns no way to stop is refused, naming options.events', async () => {
    const client = fakeClient(txn('completed'));
    const error = await waitForTransaction(client, ID, { events: { subscribe: () => 42 as never } }).catch(
      (e: unknown) => e,
    );
    expect((error as WalletRequestValidationError).issues?.[0]?.path).toBe('options.events');
  });
});

describe('createTransactionEvents with the webhook handler', () => {
  test('a webhook read back by verifyWith ends the wait with the status read back, before the next poll', async () => {
    const confirmed = txn('completed');
    const polled = fakeClient(txn('pending'));
    const events = createTransactionEvents();
    const handler = createWebhookHandler({
      verifyWith: fakeClient(confirmed),
      onTransaction: events.publish,
    });
    const wait = waitForTransaction(polled, ID, { ...SLOW, timeoutMs: 5_000, events });
    await new Promise((resolve) => setImmediate(resolve));

    const response = await handler(
      new Request('http://127.0.0.1/webhooks', {
        method: 'POST',
        body: JSON.stringify({ transaction_id: ID, transaction_status: 'completed' }),
      }),
    );

    expect(response.status).toBe(200);
    await expect(wait).resolves.toEqual(confirmed);
    expect(polled.calls).toHaveLength(1);
  });

  test('a listener whose subscription was stopped is not called again', () => {
    const events = createTransactionEvents();
    const calls: string[] = [];
    const stop = events.subscribe((event) => void calls.push(event.transaction_id));
    events.publish(EVENT);
    stop();
    events.publish(EVENT);
    expect(calls).toEqual([ID]);
  });

  test('every listener runs even if one throws; publish then rethrows the first error', () => {
    const events = createTransactionEvents();
    const seen: string[] = [];
    const failure = new Error('first');
    events.subscribe(() => {
      throw failure;
    });
    events.subscribe((event) => void seen.push(event.transaction_id));
    const stop = events.subscribe(() => {
      throw new Error('second');
    });
    stop();

    expect(() => events.publish(EVENT)).toThrow(failure);
    expect(seen).toEqual([ID]);
  });
});
