import type { DedupeClaim, WebhookDedupeStore } from '../webhooks/dedupe.js';
import { type ConformanceCheck, expectSame, expectThat, pause } from './check.js';

/** Makes an empty dedupe store for one check whose keys expire after `ttlMs`. */
export type DedupeStoreFactory = (options: {
  ttlMs: number;
}) => WebhookDedupeStore | Promise<WebhookDedupeStore>;

/** A key's life in the expiry checks: long enough for a loaded machine to claim twice within it. */
const SHORT_MS = 1_000;
const LONG_MS = 60_000;

type Store = WebhookDedupeStore;

async function claim(store: Store, key: string, leaseMs = LONG_MS): Promise<DedupeClaim> {
  const answer = await store.claim(key, leaseMs);
  expectThat(typeof answer === 'object' && answer !== null, `claim of ${key} answers an outcome object`);
  return answer as DedupeClaim;
}

async function claimed(store: Store, key: string, leaseMs = LONG_MS): Promise<string> {
  const outcome = await claim(store, key, leaseMs);
  expectSame(outcome.outcome, 'claimed', `claim of ${key}`);
  return (outcome as Extract<DedupeClaim, { outcome: 'claimed' }>).lease;
}

async function complete(store: Store, key: string, lease: string): Promise<void> {
  expectThat(typeof store.complete === 'function', 'the store has complete()');
  await store.complete?.(key, lease);
}

const checks: Record<string, [ttlMs: number, (store: Store) => Promise<void>]> = {
  'the first claim of a key wins, later claims are in progress, and once completed duplicates': [
    LONG_MS,
    async (store) => {
      const lease = await claimed(store, 'transaction:tx-1:completed');
      const during = await claim(store, 'transaction:tx-1:completed');
      expectSame(during.outcome, 'in_progress', 'claim under a live lease');
      const wait = (during as Extract<DedupeClaim, { outcome: 'in_progress' }>).retryAfterMs;
      expectThat(wait > 0 && wait <= LONG_MS, `retryAfterMs within the lease (${wait})`);
      await complete(store, 'transaction:tx-1:completed', lease);
      expectSame(
        (await claim(store, 'transaction:tx-1:completed')).outcome,
        'duplicate',
        'claim after complete',
      );
      await claimed(store, 'transaction:tx-1:failed');
    },
  ],
  'of many concurrent claims of one key exactly one wins': [
    LONG_MS,
    async (store) => {
      const outcomes = await Promise.all(
        Array.from({ length: 25 }, () => claim(store, 'transaction:tx-9:completed')),
      );
      expectSame(outcomes.filter((one) => one.outcome === 'claimed').length, 1, 'winning claims');
      expectSame(outcomes.filter((one) => one.outcome === 'in_progress').length, 24, 'claims in progress');
    },
  ],
  'a released key can be claimed again at once': [
    LONG_MS,
    async (store) => {
      const lease = await claimed(store, 'transaction:tx-2:completed');
      await store.release?.('transaction:tx-2:completed', lease);
      await claimed(store, 'transaction:tx-2:completed');
    },
  ],
  'a lease that is neither completed nor released ends, and the key can be claimed again': [
    LONG_MS,
    async (store) => {
      await claimed(store, 'transaction:tx-4:completed', SHORT_MS);
      expectSame(
        (await claim(store, 'transaction:tx-4:completed')).outcome,
        'in_progress',
        'within the lease',
      );
      await pause(SHORT_MS * 1.5);
      await claimed(store, 'transaction:tx-4:completed');
    },
  ],
  'a holder whose lease ended can neither complete nor release the key another delivery took': [
    LONG_MS,
    async (store) => {
      const stale = await claimed(store, 'transaction:tx-5:completed', SHORT_MS);
      await pause(SHORT_MS * 1.5);
      const current = await claimed(store, 'transaction:tx-5:completed');
      await complete(store, 'transaction:tx-5:completed', stale);
      await store.release?.('transaction:tx-5:completed', stale);
      expectSame(
        (await claim(store, 'transaction:tx-5:completed')).outcome,
        'in_progress',
        'after stale writes',
      );
      await complete(store, 'transaction:tx-5:completed', current);
      expectSame(
        (await claim(store, 'transaction:tx-5:completed')).outcome,
        'duplicate',
        'after the holder completes',
      );
    },
  ],
  'a completed key can be claimed again once its time to live has passed': [
    SHORT_MS,
    async (store) => {
      const lease = await claimed(store, 'transaction:tx-3:completed');
      await complete(store, 'transaction:tx-3:completed', lease);
      expectSame(
        (await claim(store, 'transaction:tx-3:completed')).outcome,
        'duplicate',
        'within the time to live',
      );
      await pause(SHORT_MS * 1.5);
      await claimed(store, 'transaction:tx-3:completed');
    },
  ],
};

/**
 * The checks every shared {@link WebhookDedupeStore} adapter passes. Each check runs against a
 * fresh store from `factory`, which gets the time to live its keys must have.
 *
 * @example
 * for (const check of dedupeConformanceChecks(({ ttlMs }) => createMyStore({ ttlMs }))) test(check.name, check.run);
 */
export function dedupeConformanceChecks(factory: DedupeStoreFactory): ConformanceCheck[] {
  return Object.entries(checks).map(([name, [ttlMs, check]]) => ({
    name,
    run: async () => check(await factory({ ttlMs })),
  }));
}
