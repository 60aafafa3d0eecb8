import { describe, expect, test } from 'vitest';
import {
  createMemoryTokenStore,
  createTokenVault,
  type TokenStore,
  WalletConfigError,
} from '../../src/index.js';
import { APP_ID, newKey } from './keys.js';

const READABLE = ['alice@example.com', 'bob@example.com', 'carol@example.com'];
const tokenOf = (email: string) => `tok_${email.split('@')[0]}_0123456789`;

/**
 * A store with three readable users under `k1`, and three rows no key opens: one altered, one
 * moved from another user's row, one sealed with other bytes under the id `k1`.
 */
async function storeWithUnreadableRows() {
  const store = createMemoryTokenStore();
  const k1 = newKey();
  const old = createTokenVault({ store, keys: { primary: 'k1', keys: { k1 } }, appId: APP_ID });
  for (const email of [...READABLE, 'dave@example.com'])
    await old.receive({ user_email: email, token: tokenOf(email) });
  await alter(store, 'dave@example.com');
  await store.compareAndSet('user:mallory@example.com', undefined, await store.get('user:alice@example.com'));
  const otherBytes = createTokenVault({
    store,
    keys: { primary: 'k1', keys: { k1: newKey() } },
    appId: APP_ID,
  });
  await otherBytes.receive({ user_email: 'erin@example.com', token: tokenOf('erin@example.com') });
  const k2 = newKey();
  const rotated = createTokenVault({ store, keys: { primary: 'k2', keys: { k1, k2 } }, appId: APP_ID });
  const only = createTokenVault({ store, keys: { primary: 'k2', keys: { k2 } }, appId: APP_ID });
  return { store, k1, k2, rotated, only };
}

/** Changes one byte of the user's sealed candidate. */
async function alter(store: TokenStore, email: string) {
  const stored = (await store.get(`user:${email}`)) as string;
  const sealed = JSON.parse(stored).candidate as string;
  const last = sealed.at(-2) === 'A' ? 'B' : 'A';
  const altered = `${sealed.slice(0, -2)}${last}${sealed.at(-1)}`;
  await store.compareAndSet(`user:${email}`, stored, JSON.stringify({ candidate: altered }));
}

const UNREADABLE = ['dave@example.com', 'erin@example.com', 'mallory@example.com'];

describe('rewrap over rows no key opens', () => {
  test('an unreadable row is left as it is and counted, and the rotation goes on past it', async () => {
    const { store, rotated, only } = await storeWithUnreadableRows();
    const before = await Promise.all(UNREADABLE.map((email) => store.get(`user:${email}`)));
    const report = await rotated.rewrap({ batchSize: 2 });
    expect(report).toEqual({
      scanned: 6,
      rewrapped: 3,
      unreadable: 3,
      unreadableUsers: UNREADABLE,
      next: undefined,
    });
    for (const email of READABLE) expect(await only.tokenFor(email)).toBe(tokenOf(email));
    expect(await Promise.all(UNREADABLE.map((email) => store.get(`user:${email}`)))).toEqual(before);
  });

  test('a rerun completes and reports the same rows as unreadable, not rewrapped', async () => {
    const { rotated } = await storeWithUnreadableRows();
    await rotated.rewrap();
    expect(await rotated.rewrap({ batchSize: 4 })).toEqual({
      scanned: 6,
      rewrapped: 0,
      unreadable: 3,
      unreadableUsers: UNREADABLE,
      next: undefined,
    });
  });

  test('forgetting the users of unreadable rows leaves a run with nothing unreadable', async () => {
    const { rotated } = await storeWithUnreadableRows();
    const { unreadableUsers } = await rotated.rewrap();
    for (const email of unreadableUsers) expect(await rotated.forget(email)).toBe(true);
    expect(await rotated.rewrap()).toMatchObject({
      scanned: 3,
      rewrapped: 0,
      unreadable: 0,
      unreadableUsers: [],
    });
  });

  test('the report shows no token and no key', async () => {
    const { rotated, k1, k2 } = await storeWithUnreadableRows();
    const shown = JSON.stringify(await rotated.rewrap());
    for (const secret of [k1, k2, ...[...READABLE, ...UNREADABLE].map(tokenOf)]) {
      expect(shown).not.toContain(secret);
    }
  });

  test('a token under a key id the keyring lacks still stops the run with a WalletConfigError naming the key', async () => {
    const { store } = await storeWithUnreadableRows();
    const withoutK1 = createTokenVault({
      store,
      keys: { primary: 'k3', keys: { k3: newKey() } },
      appId: APP_ID,
    });
    const error = await withoutK1.rewrap().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WalletConfigError);
    expect((error as Error).message).toMatch(/"k1"/);
  });
});
