import { getEventListeners } from 'node:events';
import { describe, expect, test, vi } from 'vitest';
import { WalletAbortError } from '../../src/errors.js';
import { WalletPollTimeoutError } from '../../src/polling/errors.js';
import { waitForTransaction } from '../../src/polling/poll.js';
import { fakeClient, ID, outcome, txn, useFakeTimers } from '../helpers/poll-fakes.js';

describe('waitForTransaction with fake timers', () => {
  useFakeTimers();

  test('reads at once and resolves with a completed status without waiting', async () => {
    const client = fakeClient(txn('completed'));

    const result = outcome(waitForTransaction(client, ID));
    expect(client.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(0);

    expect(result.value).toEqual(txn('completed'));
    expect(vi.getTimerCount()).toBe(0);
  });

  test('a failed transaction is a resolved value, not a rejection', async () => {
    const client = fakeClient(txn('pending'), txn('failed'));

    const result = outcome(waitForTransaction(client, ID));
    await vi.advanceTimersByTimeAsync(1_000);

    expect(result.error).toBeUndefined();
    expect(result.value?.transaction_status).toBe('failed');
    expect(result.value?.failure_reason).toBe('user cancelled');
    expect(vi.getTimerCount()).toBe(0);
  });

  test('delays grow as min(maxDelayMs, initialDelayMs * 2^n) scaled by Math.random (full jitter)', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const client = fakeClient(txn('pending'));
    const start = Date.now();

    const result = outcome(waitForTransaction(client, ID, { initialDelayMs: 1_000, maxDelayMs: 4_000 }));
    await vi.advanceTimersByTimeAsync(20_000);

    const gaps = client.calls.map((call, i) => call.at - (client.calls[i - 1]?.at ?? start));
    expect(gaps.slice(0, 7)).toEqual([0, 500, 1_000, 2_000, 2_000, 2_000, 2_000]);
    expect(result.settled).toBe(false);
  });

  test.each([0, 0.3, 0.999_999])(
    'with Math.random() = %s every delay lies in [0, min(max, initial * 2^n)]',
    async (random) => {
      vi.spyOn(Math, 'random').mockReturnValue(random);
      const client = fakeClient(txn('pending'));
      const start = Date.now();

      outcome(waitForTransaction(client, ID, { initialDelayMs: 100, maxDelayMs: 1_500, timeoutMs: 60_000 }));
      await vi.advanceTimersByTimeAsync(10_000);

      const gaps = client.calls.slice(1, 10).map((call, i) => call.at - (client.calls[i]?.at ?? start));
      expect(gaps).toHaveLength(9);
      gaps.forEach((gap, n) => {
        const ceiling = Math.min(1_500, 100 * 2 ** n);
        expect(gap).toBeGreaterThanOrEqual(0);
        expect(gap).toBeLessThanOrEqual(ceiling);
        const expected = Math.floor(random * ceiling);
        // A 0 ms timer runs on the next tick, which fake timers place 0 or 1 ms later.
        expect(gap - expected).toBeGreaterThanOrEqual(0);
        expect(gap - expected).toBeLessThanOrEqual(expected === 0 ? 1 : 0);
      });
    },
  );

  test('calls onStatus once per distinct status, the final one included', async () => {
    const client = fakeClient(txn('pending'), txn('pending'), txn('pending'), txn('completed'));
    const onStatus = vi.fn();

    const result = outcome(waitForTransaction(client, ID, { onStatus, initialDelayMs: 10 }));
    await vi.advanceTimersByTimeAsync(1_000);

    expect(result.value?.transaction_status).toBe('completed');
    expect(client.calls).toHaveLength(4);
    expect(onStatus.mock.calls.map(([r]) => r.transaction_status)).toEqual(['pending', 'completed']);
  });

  test('aborting during a pause rejects at once with WalletAbortError, makes no further call and leaves no timer', async () => {
    const client = fakeClient(txn('pending'));
    const controller = new AbortController();

    const result = outcome(waitForTransaction(client, ID, { signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(1);
    controller.abort('shutting down');
    await Promise.resolve();
    await Promise.resolve();

    expect(result.error).toBeInstanceOf(WalletAbortError);
    expect((result.error as WalletAbortError).cause).toBe('shutting down');
    expect((result.error as WalletAbortError).endpoint).toBe('status');
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(client.calls).toHaveLength(1);
  });

  test('aborting during a read that ignores its signal still rejects at once', async () => {
    const client = fakeClient('hang');
    const controller = new AbortController();

    const result = outcome(waitForTransaction(client, ID, { signal: controller.signal }));
    const readSignal = client.calls[0]?.options?.signal;
    controller.abort();
    await Promise.resolve();

    expect(result.error).toBeInstanceOf(WalletAbortError);
    expect(readSignal?.aborted).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  test('an already aborted signal rejects without any request', async () => {
    const client = fakeClient(txn('completed'));

    await expect(waitForTransaction(client, ID, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(
      WalletAbortError,
    );
    expect(client.calls).toHaveLength(0);
  });

  test('past timeoutMs it rejects with WalletPollTimeoutError carrying the last status, not a moment earlier', async () => {
    const client = fakeClient(txn('pending'));

    const result = outcome(waitForTransaction(client, ID, { timeoutMs: 10_000, initialDelayMs: 500 }));
    await vi.advanceTimersByTimeAsync(9_999);
    expect(result.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);

    expect(result.error).toBeInstanceOf(WalletPollTimeoutError);
    const error = result.error as WalletPollTimeoutError;
    expect(error.lastStatus).toBe('pending');
    expect(error.timeoutMs).toBe(10_000);
    expect(error.transactionId).toBe(ID);
    expect(error.cause).toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);
  });

  test('a hung read cannot outlive the deadline: its signal aborts and its time limit fits what is left', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const client = fakeClient(txn('pending'), 'hang');

    const result = outcome(
      waitForTransaction(client, ID, { timeoutMs: 3_000, initialDelayMs: 2_000, requestTimeoutMs: 10_000 }),
    );
    await vi.advanceTimersByTimeAsync(1_000);
    expect(client.calls.map((call) => call.options?.timeoutMs)).toEqual([3_000, 2_000]);
    await vi.advanceTimersByTimeAsync(2_000);

    expect(result.error).toBeInstanceOf(WalletPollTimeoutError);
    expect(client.calls[1]?.options?.signal?.aborted).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  test('each read gets requestTimeoutMs as its per-attempt limit while time allows', async () => {
    const client = fakeClient(txn('completed'));

    await Promise.all([
      waitForTransaction(client, ID, { requestTimeoutMs: 5_000 }),
      vi.advanceTimersByTimeAsync(0),
    ]);

    expect(client.calls[0]?.options?.timeoutMs).toBe(5_000);
    expect(client.calls[0]?.options?.signal).toBeInstanceOf(AbortSignal);
  });

  test('if onStatus throws, polling stops and the wait rejects with that error', async () => {
    const client = fakeClient(txn('pending'), txn('completed'));
    const boom = new Error('handler failed');

    const result = outcome(
      waitForTransaction(client, ID, {
        onStatus: () => {
          throw boom;
        },
      }),
    );
    await vi.advanceTimersByTimeAsync(60_000);

    expect(result.error).toBe(boom);
    expect(client.calls).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  test('many waits sharing one signal add a single listener to it, removed when they end', async () => {
    const client = fakeClient(txn('pending'));
    const controller = new AbortController();

    const waits = Array.from({ length: 50 }, () =>
      outcome(waitForTransaction(client, ID, { signal: controller.signal })),
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(50);
    controller.abort();
    await vi.advanceTimersByTimeAsync(0);

    expect(waits.every((wait) => wait.error instanceof WalletAbortError)).toBe(true);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});
