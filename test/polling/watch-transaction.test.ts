import { describe, expect, test, vi } from 'vitest';
import { WalletAbortError, WalletRequestValidationError } from '../../src/errors.js';
import { watchTransaction } from '../../src/polling/poll.js';
import { fakeClient, ID, outcome, txn, useFakeTimers } from '../helpers/poll-fakes.js';

describe('watchTransaction', () => {
  useFakeTimers();

  test('yields each distinct status once and ends after the final one', async () => {
    const client = fakeClient(txn('pending'), txn('pending'), txn('pending'), txn('completed'));
    const seen: string[] = [];

    const done = (async () => {
      for await (const result of watchTransaction(client, ID, { initialDelayMs: 10 })) {
        seen.push(result.transaction_status);
      }
    })();
    await vi.advanceTimersByTimeAsync(1_000);
    await done;

    expect(seen).toEqual(['pending', 'completed']);
    expect(client.calls).toHaveLength(4);
    expect(vi.getTimerCount()).toBe(0);
  });

  test('requests nothing until the first next()', async () => {
    const client = fakeClient(txn('pending'));
    const watch = watchTransaction(client, ID);
    await vi.advanceTimersByTimeAsync(10_000);

    expect(client.calls).toHaveLength(0);
    expect(vi.getTimerCount()).toBe(0);
    await watch.return?.();
  });

  test('breaking out of the loop stops polling and leaves no timer', async () => {
    const client = fakeClient(txn('pending'));

    for await (const result of watchTransaction(client, ID)) {
      expect(result.transaction_status).toBe('pending');
      break;
    }
    await vi.advanceTimersByTimeAsync(60_000);

    expect(client.calls).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  test('return() during a pause ends the pending next() and makes no further request', async () => {
    const client = fakeClient(txn('pending'));
    const watch = watchTransaction(client, ID);
    await watch.next();

    const pending = outcome(watch.next());
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(1);
    await watch.return?.();
    await vi.advanceTimersByTimeAsync(0);

    expect(pending.value).toEqual({ done: true, value: undefined });
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(client.calls).toHaveLength(1);
  });

  test('an abort while the loop body runs is raised by the next next()', async () => {
    const client = fakeClient(txn('pending'));
    const controller = new AbortController();
    const watch = watchTransaction(client, ID, { signal: controller.signal });
    await watch.next();

    controller.abort();

    await expect(watch.next()).rejects.toBeInstanceOf(WalletAbortError);
    await expect(watch.next()).resolves.toEqual({ done: true, value: undefined });
    expect(vi.getTimerCount()).toBe(0);
  });

  test('a bad option rejects the first next()', async () => {
    const watch = watchTransaction(fakeClient(txn('pending')), ID, { timeoutMs: -1 });

    await expect(watch.next()).rejects.toBeInstanceOf(WalletRequestValidationError);
    await expect(watch.next()).resolves.toEqual({ done: true, value: undefined });
  });
});
