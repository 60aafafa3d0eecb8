import type { TokenStore } from '../auth/token-store.js';
import { createTokenVault, type TokenVault } from '../auth/vault.js';
import { WalletApiError, WalletRequestValidationError } from '../errors.js';
import { expectSame, expectThat, pause } from './check.js';

const SHORT_MS = 1_000;
const EMAIL = 'race@x.io';
const login = { authUrl: 'https://auth.wallet.example', redirectUrl: 'https://shop.example/connected' };

/** A random 32-byte key in base64, made with WebCrypto. */
export function newKey(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
}

/** A client for which every token works. */
const working = { listProviders: async () => ({}) };

/** A refusal of a token, as the service answers a revoked one. */
const refusal = () =>
  new WalletApiError({
    code: 'application_not_authorized',
    message: 'application is not authorized',
    status: 403,
    endpoint: 'providers',
    body: {},
  });

/** The old vault (key k1), and a rotated one (k2 primary, k1 kept) over the same store. */
function rotation(store: TokenStore) {
  const k1 = newKey();
  const k2 = newKey();
  const old = createTokenVault({ store, keys: { primary: 'k1', keys: { k1 } }, appId: 'conformance' });
  const rotated = createTokenVault({
    store,
    keys: { primary: 'k2', keys: { k1, k2 } },
    appId: 'conformance',
  });
  const only = createTokenVault({ store, keys: { primary: 'k2', keys: { k2 } }, appId: 'conformance' });
  return { old, rotated, only };
}

/** A client whose token check runs `during` (another instance's work) before answering. */
const checkingClient = (during: () => Promise<unknown>, answer: () => Promise<unknown>) => ({
  listProviders: async () => {
    await during();
    return answer();
  },
});

async function rejectsWith(run: () => Promise<unknown>, field: string, what: string) {
  let caught: unknown;
  try {
    await run();
  } catch (error) {
    caught = error;
  }
  expectThat(
    caught instanceof WalletRequestValidationError && caught.message.includes(field),
    `${what} should be refused with a WalletRequestValidationError naming ${field}`,
  );
}

/** Vault behaviour over a store: claims, rewrap races, bounds and purging. */
export const vaultChecks: Record<string, (store: TokenStore) => Promise<void>> = {
  'one authorization links at most one login, across two vaults completing at once': async (store) => {
    const keys = { primary: 'k1', keys: { k1: newKey() } };
    const first = createTokenVault({ store, keys, appId: 'conformance', login });
    const second = createTokenVault({ store, keys, appId: 'conformance', login });
    for (let round = 0; round < 5; round++) {
      const email = `user${round}@x.io`;
      const logins = await Promise.all([
        first.startLogin({ account: 'a' }),
        second.startLogin({ account: 'b', expectedEmail: email }),
        second.startLogin({ account: 'c' }),
      ]);
      await first.receive({ user_email: email, token: `tok_${round}` });
      const answers = await Promise.all(
        logins.map((started, at) =>
          (at % 2 === 0 ? first : second).completeLogin(started.state, { client: working }),
        ),
      );
      const connected = answers.filter((answer) => answer.status === 'connected');
      expectSame(connected.length, 1, `logins connected by one authorization (round ${round})`);
    }
  },
  'a rewrap on another instance never makes a check miss its candidate': async (store) => {
    const { old, rotated, only } = rotation(store);
    await old.receive({ user_email: EMAIL, token: 'tok_works' });
    const client = checkingClient(
      () => rotated.rewrap(),
      async () => ({}),
    );
    expectThat(await old.confirm(EMAIL, { client }), 'the working candidate is promoted');
    expectSame(await only.tokenFor(EMAIL), 'tok_works', 'the token, under the new key only');
    const row = await store.get(`user:${EMAIL}`);
    expectThat(row?.startsWith('{"current":"mwt1.k2.') === true, `the row holds it as current: ${row}`);
  },
  'a rewrap on another instance never brings back a refused token': async (store) => {
    const { old, rotated } = rotation(store);
    await old.receive({ user_email: EMAIL, token: 'tok_refused' });
    const client = checkingClient(
      () => rotated.rewrap(),
      () => Promise.reject(refusal()),
    );
    expectSame(await old.confirm(EMAIL, { client }), false, 'a refused candidate is not promoted');
    expectSame(await rotated.tokenFor(EMAIL), undefined, 'the refused token after the rewrap');
  },
  'writes over the bounds are refused before anything is stored, naming the key or the value': async (
    store,
  ) => {
    await rejectsWith(
      () => store.compareAndSet('k'.repeat(513), undefined, 'v'),
      'key',
      'a 513-character key',
    );
    await rejectsWith(
      () => store.compareAndSet('user:big@x.io', undefined, 'v'.repeat(16_385)),
      'value',
      'a 16,385-character value',
    );
    expectSame(await store.get('user:big@x.io'), undefined, 'the refused value');
    const vault: TokenVault = createTokenVault({
      store,
      keys: { primary: 'k1', keys: { k1: newKey() } },
      appId: 'conformance',
    });
    await rejectsWith(
      () => vault.receive({ user_email: EMAIL, token: 't'.repeat(4_097) }),
      'event.token',
      'a 4,097-character token',
    );
    await vault.receive({ user_email: EMAIL, token: 't'.repeat(4_096) });
    await vault.receive({ user_email: EMAIL, token: 'u'.repeat(4_096) });
    expectSame((await vault.tokenFor(EMAIL))?.length, 4_096, 'a token of the largest size, beside another');
  },
  'purgeExpired deletes what expired and keeps what lives': async (store) => {
    if (store.purgeExpired === undefined) return;
    await store.compareAndSet('login:gone', undefined, 'session', SHORT_MS);
    await store.compareAndSet('login:kept', undefined, 'session');
    await pause(SHORT_MS * 1.5);
    expectThat((await store.purgeExpired()) >= 1, 'purgeExpired counts the expired value');
    expectSame(await store.purgeExpired(), 0, 'a second purge');
    expectSame(
      (await store.scan('login:', undefined, 10)).map((entry) => entry.key),
      ['login:kept'],
      'scan after the purge',
    );
    expectThat(await store.compareAndSet('login:gone', undefined, 'again'), 'a purged key is free again');
  },
};
