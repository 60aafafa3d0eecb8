import type { TokenStore } from '../auth/token-store.js';
import { createTokenVault } from '../auth/vault.js';
import { type ConformanceCheck, expectSame, expectThat, pause } from './check.js';
import { newKey, vaultChecks } from './vault-checks.js';

/** Makes an empty token store for one check. */
export type TokenStoreFactory = () => TokenStore | Promise<TokenStore>;

const SHORT_MS = 1_000;

const checks: Record<string, (store: TokenStore) => Promise<void>> = {
  'a value written where there was none reads back, and compare-and-set needs the stored value': async (
    store,
  ) => {
    expectSame(await store.get('user:a@x.io'), undefined, 'an unknown key');
    expectThat(await store.compareAndSet('user:a@x.io', undefined, 'one'), 'the first write wins');
    expectSame(await store.get('user:a@x.io'), 'one', 'read back');
    expectThat(
      !(await store.compareAndSet('user:a@x.io', undefined, 'two')),
      'a write expecting no value loses',
    );
    expectThat(
      !(await store.compareAndSet('user:a@x.io', 'other', 'two')),
      'a write expecting another value loses',
    );
    expectThat(
      await store.compareAndSet('user:a@x.io', 'one', 'two'),
      'a write expecting the stored value wins',
    );
    expectSame(await store.get('user:a@x.io'), 'two', 'after the change');
  },
  'compare-and-delete deletes only the expected value': async (store) => {
    await store.compareAndSet('user:b@x.io', undefined, 'kept');
    expectThat(!(await store.compareAndSet('user:b@x.io', 'stale', undefined)), 'deleting another value');
    expectSame(await store.get('user:b@x.io'), 'kept', 'after a refused delete');
    expectThat(await store.compareAndSet('user:b@x.io', 'kept', undefined), 'deleting the stored value');
    expectSame(await store.get('user:b@x.io'), undefined, 'after the delete');
    expectThat(await store.compareAndSet('user:b@x.io', undefined, 'again'), 'a deleted key is free again');
  },
  'of concurrent writers from one value exactly one wins, and read-modify-write loops lose nothing': async (
    store,
  ) => {
    const wins = await Promise.all(
      Array.from({ length: 20 }, (_, at) => store.compareAndSet('user:c@x.io', undefined, `writer-${at}`)),
    );
    expectSame(wins.filter(Boolean).length, 1, 'winning first writes');
    await store.compareAndSet('counter', undefined, '0');
    const increment = async () => {
      for (;;) {
        const seen = (await store.get('counter')) as string;
        if (await store.compareAndSet('counter', seen, String(Number(seen) + 1))) return;
      }
    };
    await Promise.all(Array.from({ length: 20 }, increment));
    expectSame(await store.get('counter'), '20', 'after 20 concurrent increments');
  },
  'scan lists live keys of a prefix in key order, after a cursor, at most limit': async (store) => {
    for (const key of ['user:d', 'user:b', 'login:x', 'user:a', 'user:c', 'users', 'v']) {
      await store.compareAndSet(key, undefined, `value of ${key}`);
    }
    const first = await store.scan('user:', undefined, 2);
    expectSame(
      first,
      [
        { key: 'user:a', value: 'value of user:a' },
        { key: 'user:b', value: 'value of user:b' },
      ],
      'first page',
    );
    const rest = await store.scan('user:', 'user:b', 10);
    expectSame(
      rest.map((entry) => entry.key),
      ['user:c', 'user:d'],
      'after the cursor',
    );
    await store.compareAndSet('user:c', 'value of user:c', undefined);
    expectSame(
      (await store.scan('user:', undefined, 10)).map((entry) => entry.key),
      ['user:a', 'user:b', 'user:d'],
      'after a delete',
    );
  },
  'a value with a time to live expires, and then counts as no value': async (store) => {
    await store.compareAndSet('login:s1', undefined, 'session', SHORT_MS);
    await store.compareAndSet('login:s2', undefined, 'kept');
    expectSame(await store.get('login:s1'), 'session', 'within its time to live');
    await pause(SHORT_MS * 1.5);
    expectSame(await store.get('login:s1'), undefined, 'after its time to live');
    expectSame(
      (await store.scan('login:', undefined, 10)).map((entry) => entry.key),
      ['login:s2'],
      'scan',
    );
    expectThat(await store.compareAndSet('login:s1', undefined, 'new'), 'an expired key is free again');
  },
  'a vault over the store rewraps every token to the primary key, resumably, and reads them back': async (
    store,
  ) => {
    const k1 = newKey();
    const k2 = newKey();
    const old = createTokenVault({ store, keys: { primary: 'k1', keys: { k1 } }, appId: 'conformance' });
    const emails = Array.from({ length: 12 }, (_, at) => `user${String(at).padStart(2, '0')}@x.io`);
    for (const email of emails) await old.receive({ user_email: email, token: `tok_${email}` });
    const rotated = createTokenVault({
      store,
      keys: { primary: 'k2', keys: { k1, k2 } },
      appId: 'conformance',
    });
    const stop = new AbortController();
    stop.abort();
    const stopped = await rotated.rewrap({ batchSize: 5, signal: stop.signal });
    expectSame(stopped.rewrapped, 0, 'a run stopped before it began');
    const report = await rotated.rewrap({ batchSize: 5 });
    expectSame(
      [report.scanned, report.rewrapped, report.next],
      [12, 12, undefined],
      'scanned, rewrapped, next',
    );
    expectSame((await rotated.rewrap()).rewrapped, 0, 'a second run');
    const only = createTokenVault({ store, keys: { primary: 'k2', keys: { k2 } }, appId: 'conformance' });
    for (const email of emails) expectSame(await only.tokenFor(email), `tok_${email}`, `token of ${email}`);
  },
};

/**
 * The checks every {@link TokenStore} adapter passes: round-trip, compare-and-delete, concurrent
 * writers, scans, expiry, size bounds, `purgeExpired` (when the store has it), and a vault over
 * it: rewrap, rewrap racing promotions and refusals, and claims of one authorization by logins
 * completing at once. Each runs against a fresh, empty store.
 *
 * @example
 * for (const check of tokenStoreConformanceChecks(() => createMemoryTokenStore())) test(check.name, check.run);
 */
export function tokenStoreConformanceChecks(factory: TokenStoreFactory): ConformanceCheck[] {
  return Object.entries({ ...checks, ...vaultChecks }).map(([name, check]) => ({
    name,
    run: async () => check(await factory()),
  }));
}
