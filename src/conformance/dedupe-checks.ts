import type { WebhookDedupeStore } from '../webhooks/dedupe.js';
import { type ConformanceCheck, expectSame, pause } from './check.js';

/** Makes an empty dedupe store for one check whose keys expire after `ttlMs`. */
export type DedupeStoreFactory = (options: {
  ttlMs: number;
}) => WebhookDedupeStore | Promise<WebhookDedupeStore>;

/** A key's life in the expiry check: long enough for a loaded machine to claim twice within it. */
const SHORT_TTL_MS = 1_000;
const LONG_TTL_MS = 60_000;

const checks: Record<string, [ttlMs: number, (store: WebhookDedupeStore) => Promise<void>]> = {
  'the first claim of a key wins and later claims are duplicates': [
    LONG_TTL_MS,
    async (store) => {
      expectSame(await store.claim('transaction:tx-1:completed'), true, 'first claim');
      expectSame(await store.claim('transaction:tx-1:completed'), false, 'second claim');
      expectSame(await store.claim('transaction:tx-1:failed'), true, 'claim of another key');
    },
  ],
  'of many concurrent claims of one key exactly one wins': [
    LONG_TTL_MS,
    async (store) => {
      const wins = await Promise.all(
        Array.from({ length: 25 }, () => store.claim('transaction:tx-9:completed')),
      );
      expectSame(wins.filter(Boolean).length, 1, 'winning claims');
    },
  ],
  'a released key can be claimed again': [
    LONG_TTL_MS,
    async (store) => {
      await store.claim('transaction:tx-2:completed');
      await store.release?.('transaction:tx-2:completed');
      expectSame(await store.claim('transaction:tx-2:completed'), true, 'claim after release');
    },
  ],
  'a key can be claimed again once its time to live has passed': [
    SHORT_TTL_MS,
    async (store) => {
      expectSame(await store.claim('transaction:tx-3:completed'), true, 'first claim');
      expectSame(await store.claim('transaction:tx-3:completed'), false, 'claim within the time to live');
      await pause(SHORT_TTL_MS * 1.5);
      expectSame(await store.claim('transaction:tx-3:completed'), true, 'claim after the time to live');
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
