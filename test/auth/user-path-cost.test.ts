import { afterEach, expect, test, vi } from 'vitest';
import { createMemoryTokenStore, type TokenStore } from '../../src/index.js';
import { useServerTarget } from '../integration/harness.js';
import { APP_ID, vaultWith } from './keys.js';

const target = useServerTarget();
const ALICE = 'alice@example.com';
const body = () => ({ reference_id: `ref-${crypto.randomUUID()}`, amount: 10, currency: 'KES' });

afterEach(() => vi.restoreAllMocks());

/** A memory token store that counts its reads and writes. */
function countingStore() {
  const inner = createMemoryTokenStore();
  const counts = { get: 0, compareAndSet: 0 };
  const store: TokenStore = {
    ...inner,
    get: (key) => {
      counts.get += 1;
      return inner.get(key);
    },
    compareAndSet: (key, expected, value, ttlMs) => {
      counts.compareAndSet += 1;
      return inner.compareAndSet(key, expected, value, ttlMs);
    },
  };
  return { store, counts };
}

test('a deposit by { user } with a working token reads its row once and sends only the deposit: no write, no token check, no WebCrypto key import or decrypt on Node', async () => {
  const { store, counts } = countingStore();
  const { vault } = vaultWith({ store });
  const paths: string[] = [];
  const wallet = target().client('fetch', {
    tokens: vault,
    fetch: (input, init) => {
      paths.push(new URL(String(input)).pathname);
      return globalThis.fetch(input, init);
    },
  });
  await vault.receive({
    user_email: ALICE,
    token: target().sandbox.authorize({ email: ALICE, appId: APP_ID }),
  });
  // The first call checks the candidate and promotes it; the ones after pay with the current token.
  await wallet.deposit(body(), { user: ALICE });
  const subtleDecrypt = vi.spyOn(crypto.subtle, 'decrypt');
  const importKey = vi.spyOn(crypto.subtle, 'importKey');
  counts.get = 0;
  counts.compareAndSet = 0;
  paths.length = 0;
  await expect(wallet.deposit(body(), { user: ALICE })).resolves.toMatchObject({
    transaction_status: 'completed',
  });
  expect(counts).toEqual({ get: 1, compareAndSet: 0 });
  expect(paths.map((path) => path.split('/').at(-1))).toEqual(['c2b']);
  expect(subtleDecrypt).not.toHaveBeenCalled();
  expect(importKey).not.toHaveBeenCalled();
});
