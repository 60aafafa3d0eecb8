import { inspect } from 'node:util';
import { describe, expect, test } from 'vitest';
import {
  createMemoryTokenStore,
  createTokenVault,
  WalletConfigError,
  WalletRequestValidationError,
  WalletTokenDecryptionError,
} from '../../src/index.js';
import { APP_ID, newKey, vaultWith } from './keys.js';

const TOKEN = 'tok_live_0123456789abcdef';

async function rowsOf(store: ReturnType<typeof createMemoryTokenStore>) {
  return store.scan('', undefined, 1000);
}

describe('tokens at rest', () => {
  test('a received token is stored sealed: versioned, naming its key, never in plaintext', async () => {
    const { vault, store } = vaultWith();
    await vault.receive({ user_email: 'Alice@Example.com', token: TOKEN });
    const rows = await rowsOf(store);
    const row = rows.find((entry) => entry.key === 'user:alice@example.com');
    expect(row?.value).toMatch(/"candidate":"mwt1\.k1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+"/);
    for (const entry of rows) expect(entry.value).not.toContain(TOKEN);
    expect(await vault.tokenFor('alice@example.com')).toBe(TOKEN);
  });

  test('every write uses a fresh IV: the same token seals differently', async () => {
    const { vault, store } = vaultWith();
    await vault.receive({ user_email: 'alice@example.com', token: TOKEN });
    const first = await store.get('user:alice@example.com');
    await vault.forget('alice@example.com');
    await vault.receive({ user_email: 'alice@example.com', token: TOKEN });
    expect(await store.get('user:alice@example.com')).not.toBe(first);
  });

  test('a tampered ciphertext fails with a typed error, never a token', async () => {
    const { vault, store } = vaultWith();
    await vault.receive({ user_email: 'alice@example.com', token: TOKEN });
    const stored = (await store.get('user:alice@example.com')) as string;
    const sealed = JSON.parse(stored).candidate as string;
    const last = sealed.at(-2) === 'A' ? 'B' : 'A';
    const tampered = `${sealed.slice(0, -2)}${last}${sealed.at(-1)}`;
    await store.compareAndSet('user:alice@example.com', stored, JSON.stringify({ candidate: tampered }));
    const error = await vault.tokenFor('alice@example.com').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WalletTokenDecryptionError);
    expect(error).toMatchObject({ userEmail: 'alice@example.com', keyId: 'k1' });
  });

  test("a row moved to another user's place fails to decrypt (the e-mail is associated data)", async () => {
    const { vault, store } = vaultWith();
    await vault.receive({ user_email: 'alice@example.com', token: TOKEN });
    await store.compareAndSet(
      'user:mallory@example.com',
      undefined,
      await store.get('user:alice@example.com'),
    );
    await expect(vault.tokenFor('mallory@example.com')).rejects.toBeInstanceOf(WalletTokenDecryptionError);
  });

  test('another app id, or another key under the same id, cannot read it', async () => {
    const { vault, store, keys } = vaultWith();
    await vault.receive({ user_email: 'alice@example.com', token: TOKEN });
    const otherApp = createTokenVault({ store, keys, appId: 'another_app' });
    await expect(otherApp.tokenFor('alice@example.com')).rejects.toBeInstanceOf(WalletTokenDecryptionError);
    const wrongKey = createTokenVault({
      store,
      keys: { primary: 'k1', keys: { k1: newKey() } },
      appId: APP_ID,
    });
    await expect(wrongKey.tokenFor('alice@example.com')).rejects.toBeInstanceOf(WalletTokenDecryptionError);
  });

  test('a token under a key id the keyring lacks is a WalletConfigError naming the key', async () => {
    const { vault, store } = vaultWith();
    await vault.receive({ user_email: 'alice@example.com', token: TOKEN });
    const rotated = createTokenVault({
      store,
      keys: { primary: 'k2', keys: { k2: newKey() } },
      appId: APP_ID,
    });
    await expect(rotated.tokenFor('alice@example.com')).rejects.toThrow(/keys\.keys.*"k1"/);
    await expect(rotated.tokenFor('alice@example.com')).rejects.toBeInstanceOf(WalletConfigError);
  });

  test.each([
    [
      'a short key',
      { primary: 'k1', keys: { k1: Buffer.alloc(16).toString('base64') } },
      /keys\.keys\.k1.*32 bytes.*16/,
    ],
    ['a long key', { primary: 'k1', keys: { k1: Buffer.alloc(48).toString('base64') } }, /32 bytes/],
    ['a key that is not base64', { primary: 'k1', keys: { k1: 'not base64!' } }, /keys\.keys\.k1.*base64/],
    ['a missing primary', { primary: 'k9', keys: { k1: newKey() } }, /keys\.primary/],
    ['no keys', { primary: 'k1', keys: {} }, /keys\.keys/],
    ['a bad key id', { primary: 'a.b', keys: { 'a.b': newKey() } }, /key id/],
    ['no keyring', undefined, /keys/],
  ])('%s is a WalletConfigError naming it', (_name, keys, message) => {
    const build = () =>
      createTokenVault({ store: createMemoryTokenStore(), keys: keys as never, appId: APP_ID });
    expect(build).toThrow(WalletConfigError);
    expect(build).toThrow(message);
  });

  test('bad options and bad events are typed errors naming the field', async () => {
    expect(() =>
      createTokenVault({ store: {} as never, keys: { primary: 'k', keys: { k: newKey() } }, appId: APP_ID }),
    ).toThrow(/store/);
    expect(() =>
      createTokenVault({
        store: createMemoryTokenStore(),
        keys: { primary: 'k', keys: { k: newKey() } },
        appId: ' ',
      }),
    ).toThrow(/appId/);
    const { vault } = vaultWith();
    await expect(vault.receive({ user_email: 'not-an-email', token: TOKEN })).rejects.toThrow(
      /event\.user_email/,
    );
    await expect(vault.receive({ user_email: 'a@b.c', token: 'has space' })).rejects.toBeInstanceOf(
      WalletRequestValidationError,
    );
    await expect(vault.receive(undefined as never)).rejects.toBeInstanceOf(WalletRequestValidationError);
    await expect(vault.tokenFor(42 as never)).rejects.toThrow(/email/);
  });

  test.each([
    ['0', 0],
    ['an empty string', ''],
    ['null', null],
    ['true', true],
    ['an array', []],
    ['a URL string', 'https://auth.wallet.example'],
  ])('login settings of %s are a WalletConfigError naming login when the vault is made', (_name, login) => {
    const build = () => vaultWith({ login: login as never });
    expect(build).toThrow(WalletConfigError);
    expect(build).toThrow(/^login: must be an object \{ authUrl, redirectUrl/);
  });

  test('login settings name each missing, unusable or unknown field at once', () => {
    let error: unknown;
    try {
      vaultWith({ login: { authUrl: 'https://auth.wallet.example', allowedHosts: ['shop'] } as never });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(WalletConfigError);
    expect(error).toMatchObject({
      option: 'login.allowedHosts',
      issues: [
        { path: 'login.allowedHosts', message: expect.stringMatching(/is not a login setting/) },
        { path: 'login.redirectUrl', message: 'must be an absolute URL' },
      ],
    });
    expect(() =>
      vaultWith({ login: { authUrl: 'ftp://auth.wallet.example', redirectUrl: 'https://shop.example' } }),
    ).toThrow(/login\.authUrl: must use https/);
  });

  test('a vault made with login: undefined starts no login: a WalletConfigError naming login', async () => {
    const { vault } = vaultWith({ login: undefined });
    await expect(vault.startLogin({ account: 'a' })).rejects.toBeInstanceOf(WalletConfigError);
    await expect(vault.reconnect('alice@example.com')).rejects.toThrow(/^login: startLogin needs/);
  });

  test('rewrap options that are not an object are a WalletRequestValidationError naming options', async () => {
    const { vault } = vaultWith();
    for (const options of [null, 0, 'fast', []]) {
      const error = await vault.rewrap(options as never).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(WalletRequestValidationError);
      expect(error).toMatchObject({ issues: [{ path: 'options' }] });
    }
    await expect(vault.rewrap({ batchSize: 0, after: 5, signal: 'stop', batch: 9 } as never)).rejects.toThrow(
      /batch: is not a rewrap option.*batchSize: must be.*after: must be.*signal: must be an AbortSignal/,
    );
    await expect(vault.rewrap(undefined)).resolves.toMatchObject({ scanned: 0, rewrapped: 0 });
  });

  test('neither the vault nor its errors show a token or a key', async () => {
    const key = newKey();
    const { vault, store } = vaultWith({ keys: { primary: 'k1', keys: { k1: key } } });
    await vault.receive({ user_email: 'alice@example.com', token: TOKEN });
    await store.compareAndSet('user:bob@example.com', undefined, await store.get('user:alice@example.com'));
    const error = await vault.tokenFor('bob@example.com').catch((caught: unknown) => caught);
    for (const shown of [
      inspect(vault, { depth: 10, showHidden: true }),
      inspect(error),
      JSON.stringify(error),
    ]) {
      expect(shown).not.toContain(TOKEN);
      expect(shown).not.toContain(key);
    }
  });
});
