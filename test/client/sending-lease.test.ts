import { afterEach, expect, test, vi } from 'vitest';
import { createMemoryJournal, WalletClient } from '../../src/index.js';
import { outcomesWritten } from '../helpers/written-behind.js';

afterEach(() => vi.useRealTimers());

/** An answer of the service to a withdrawal of `reference_id`. */
const answer = (reference_id: string) =>
  new Response(
    JSON.stringify({
      transaction_id: 'txn_1',
      transaction_status: 'completed',
      reference_id,
      amount: 3,
      currency: 'KES',
    }),
    { status: 200, headers: { 'content-type': 'application/json' } },
  );

test('a call that runs past half its sending lease renews it, so recover() elsewhere still leaves it alone', async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  const journal = createMemoryJournal();
  const renew = vi.spyOn(journal, 'renewSending');
  let reply = () => {};
  let sending = () => {};
  const sent = new Promise<void>((resolve) => {
    sending = resolve;
  });
  const slow = new WalletClient({
    apiKey: 'sk_test_lease',
    baseUrl: 'http://127.0.0.1:9',
    journal,
    maxRetries: 0,
    timeoutMs: 120_000,
    fetch: (_url, init) =>
      new Promise((resolve) => {
        const body = JSON.parse(String(init?.body)) as { reference_id: string };
        reply = () => resolve(answer(body.reference_id));
        sending();
      }),
  });
  const resent: unknown[] = [];
  const other = new WalletClient({
    apiKey: 'sk_test_lease',
    baseUrl: 'http://127.0.0.1:9',
    journal,
    fetch: async (url) => {
      resent.push(url);
      throw new TypeError('fetch failed');
    },
  });
  const paying = slow.withdraw({
    reference_id: 'long-1',
    email: 'bob@example.com',
    amount: 3,
    currency: 'KES',
  });
  // 40 s into the call once it sends (the journaled path may still be loading before): past the
  // 30 s lease it took when it recorded the intent.
  await sent;
  await vi.advanceTimersByTimeAsync(40_000);
  expect(renew).toHaveBeenCalled();
  expect(await other.recover()).toMatchObject({ intents: [], left: 1 });
  expect(resent).toEqual([]);
  reply();
  await expect(paying).resolves.toMatchObject({ reference_id: 'long-1' });
  await outcomesWritten(journal, 'long-1');
  // The outcome frees the lease.
  expect((await journal.get('long-1'))?.leaseUntil).toBeUndefined();
});
