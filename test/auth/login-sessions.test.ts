import { describe, expect, test } from 'vitest';
import { WalletConfigError, WalletLoginStateError, WalletRequestValidationError } from '../../src/index.js';
import { useServerTarget } from '../integration/harness.js';
import { APP_ID, vaultWith } from './keys.js';

const target = useServerTarget();

function connectedVault() {
  const made = vaultWith({
    login: { authUrl: target().authUrl, redirectUrl: 'http://127.0.0.1:3000/connected' },
  });
  return { ...made, wallet: target().client('node', { tokens: made.vault }) };
}

async function approve(vault: ReturnType<typeof vaultWith>['vault'], email: string) {
  await vault.receive({ user_email: email, token: target().sandbox.authorize({ email, appId: APP_ID }) });
}

describe('login correlation', () => {
  test('startLogin puts a one-time state in the redirect URL of a login URL that opens', async () => {
    const { vault } = connectedVault();
    const started = await vault.startLogin({ account: 'customer-7' });
    const url = new URL(started.url);
    expect(url.searchParams.get('app_id')).toBe(APP_ID);
    const redirect = new URL(url.searchParams.get('redirect_url') as string);
    expect(redirect.origin + redirect.pathname).toBe('http://127.0.0.1:3000/connected');
    expect(redirect.searchParams.get('state')).toBe(started.state);
    expect(started.state).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect((await fetch(started.url)).status).toBe(200);
    expect(Date.parse(started.expiresAt)).toBeGreaterThan(Date.now());
  });

  test('the one authorization in the window is linked to the account, once', async () => {
    const { vault, wallet } = connectedVault();
    const { state } = await vault.startLogin({ account: 'customer-7' });
    expect(await vault.completeLogin(state, { client: wallet })).toEqual({
      status: 'pending',
      account: 'customer-7',
    });
    await approve(vault, 'alice@example.com');
    expect(await vault.completeLogin(state, { client: wallet })).toEqual({
      status: 'connected',
      account: 'customer-7',
      email: 'alice@example.com',
    });
    const replay = await vault.completeLogin(state, { client: wallet }).catch((caught: unknown) => caught);
    expect(replay).toBeInstanceOf(WalletLoginStateError);
    expect(replay).toMatchObject({ problem: 'used' });
  });

  test('completeLogin waits for a late webhook when asked to', async () => {
    const { vault, wallet } = connectedVault();
    const { state } = await vault.startLogin({ account: 'customer-7' });
    setTimeout(() => void approve(vault, 'alice@example.com'), 150);
    await expect(vault.completeLogin(state, { client: wallet, waitMs: 5_000 })).resolves.toMatchObject({
      status: 'connected',
    });
  });

  test('two authorizations in the window are ambiguous: never a guess, and the user names theirs', async () => {
    const { vault, wallet } = connectedVault();
    const { state } = await vault.startLogin({ account: 'customer-7' });
    await approve(vault, 'alice@example.com');
    await approve(vault, 'bob@example.com');
    const answer = await vault.completeLogin(state, { client: wallet });
    expect(answer).toMatchObject({ status: 'ambiguous', account: 'customer-7', authorizations: 2 });
    expect(JSON.stringify(answer)).not.toMatch(/alice|bob/);
    expect(await vault.completeLogin(state, { client: wallet, email: 'Bob@Example.com' })).toMatchObject({
      status: 'connected',
      email: 'bob@example.com',
    });
  });

  test('an expected e-mail matches only that user', async () => {
    const { vault, wallet } = connectedVault();
    const { state } = await vault.startLogin({ account: 'customer-7', expectedEmail: 'bob@example.com' });
    await approve(vault, 'alice@example.com');
    expect(await vault.completeLogin(state, { client: wallet })).toMatchObject({ status: 'pending' });
    await approve(vault, 'bob@example.com');
    expect(await vault.completeLogin(state, { client: wallet })).toMatchObject({
      status: 'connected',
      email: 'bob@example.com',
    });
  });

  test("an e-mail given to completeLogin never overrides the expected one: another user's authorization links nothing", async () => {
    const { vault, wallet } = connectedVault();
    const { state } = await vault.startLogin({
      account: 'acct-of-alice',
      expectedEmail: 'alice@example.com',
    });
    await approve(vault, 'bob@example.com');
    const error = await vault
      .completeLogin(state, { client: wallet, email: 'bob@example.com' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WalletRequestValidationError);
    expect(error).toMatchObject({ issues: [{ path: 'email' }] });
    expect((error as Error).message).toMatch(/email: differs from the e-mail this login was started for/);
    expect((error as Error).message).not.toContain('alice@example.com');
    expect(await vault.completeLogin(state, { client: wallet })).toMatchObject({ status: 'pending' });
    // Bob's authorization is still his to link, by a login of his own.
    const bobs = await vault.startLogin({ account: 'acct-of-bob' });
    await approve(vault, 'bob@example.com');
    expect(await vault.completeLogin(bobs.state, { client: wallet })).toMatchObject({
      status: 'connected',
      email: 'bob@example.com',
    });
    await approve(vault, 'alice@example.com');
    expect(await vault.completeLogin(state, { client: wallet, email: ' Alice@Example.com ' })).toEqual({
      status: 'connected',
      account: 'acct-of-alice',
      email: 'alice@example.com',
    });
  });

  test("a reconnect login refuses another user's e-mail, naming the field", async () => {
    const { vault, wallet } = connectedVault();
    const { state } = await vault.reconnect('alice@example.com', { account: 'acct-of-alice' });
    await approve(vault, 'bob@example.com');
    await expect(
      vault.completeLogin(state, { client: wallet, email: 'bob@example.com' }),
    ).rejects.toMatchObject({ name: 'WalletRequestValidationError', issues: [{ path: 'email' }] });
    expect(await vault.completeLogin(state, { client: wallet })).toMatchObject({ status: 'pending' });
  });

  test('an authorization claimed by one login is not matched by the next', async () => {
    const { vault, wallet } = connectedVault();
    const first = await vault.startLogin({ account: 'customer-7' });
    const second = await vault.startLogin({ account: 'customer-8' });
    await approve(vault, 'alice@example.com');
    expect(await vault.completeLogin(first.state, { client: wallet })).toMatchObject({
      status: 'connected',
      account: 'customer-7',
    });
    expect(await vault.completeLogin(second.state, { client: wallet })).toMatchObject({
      status: 'pending',
      account: 'customer-8',
    });
  });

  test('authorizations from before the login started are not matched', async () => {
    const { vault, wallet } = connectedVault();
    await approve(vault, 'alice@example.com');
    await new Promise((resolve) => setTimeout(resolve, 5));
    const { state } = await vault.startLogin({ account: 'customer-7' });
    expect(await vault.completeLogin(state, { client: wallet })).toMatchObject({ status: 'pending' });
  });

  test('an expired, unknown or malformed state is refused with a typed error', async () => {
    const { vault, wallet } = connectedVault();
    const { state } = await vault.startLogin({ account: 'customer-7', ttlMs: 1 });
    await new Promise((resolve) => setTimeout(resolve, 10));
    await expect(vault.completeLogin(state, { client: wallet })).rejects.toMatchObject({
      problem: 'expired',
    });
    await expect(vault.completeLogin('A'.repeat(22), { client: wallet })).rejects.toMatchObject({
      problem: 'unknown',
    });
    await expect(vault.completeLogin('../../etc', { client: wallet })).rejects.toBeInstanceOf(
      WalletLoginStateError,
    );
  });

  test('one authorization links one account: two logins completing at once never both connect', async () => {
    for (let round = 0; round < 10; round++) {
      const { vault, store, keys, wallet } = connectedVault();
      const { vault: other } = vaultWith({
        store,
        keys,
        login: { authUrl: target().authUrl, redirectUrl: 'http://127.0.0.1:3000/connected' },
      });
      const mine = await vault.startLogin({ account: 'attacker' });
      const victim = await other.startLogin({ account: 'victim', expectedEmail: 'alice@example.com' });
      await approve(vault, 'alice@example.com');
      const answers = await Promise.all([
        vault.completeLogin(mine.state, { client: wallet }),
        other.completeLogin(victim.state, { client: wallet }),
      ]);
      expect(answers.filter((answer) => answer.status === 'connected')).toHaveLength(1);
      expect(answers.filter((answer) => answer.status === 'pending')).toHaveLength(1);
    }
  });

  test('completeLogin refuses a waitMs that is not a whole number of milliseconds, naming it', async () => {
    const { vault, wallet } = connectedVault();
    const { state } = await vault.startLogin({ account: 'customer-7' });
    for (const waitMs of ['soon', -1, 1.5, Number.NaN, 10 * 60_000]) {
      await expect(vault.completeLogin(state, { client: wallet, waitMs: waitMs as never })).rejects.toThrow(
        /waitMs: must be a whole number/,
      );
    }
    await expect(vault.completeLogin(state, { client: {} as never })).rejects.toThrow(/client/);
    await expect(vault.completeLogin(state, undefined as never)).rejects.toThrow(/options/);
    expect(await vault.completeLogin(state, { client: wallet, waitMs: 0 })).toMatchObject({
      status: 'pending',
    });
  });

  test('a forged user_authorized webhook never connects a login: its token is checked first', async () => {
    const { vault, wallet } = connectedVault();
    const { state } = await vault.startLogin({ account: 'attacker' });
    await vault.receive({ user_email: 'alice@example.com', token: 'tok_forged_by_the_attacker' });
    expect(await vault.completeLogin(state, { client: wallet })).toMatchObject({ status: 'pending' });
    expect(await vault.tokenFor('alice@example.com')).toBeUndefined();
    await approve(vault, 'alice@example.com');
    expect(await vault.completeLogin(state, { client: wallet })).toMatchObject({
      status: 'connected',
      email: 'alice@example.com',
    });
  });

  test('a delivery of a token the vault already holds is no new authorization', async () => {
    const { vault, wallet } = connectedVault();
    const token = target().sandbox.authorize({ email: 'alice@example.com', appId: APP_ID });
    await vault.receive({ user_email: 'alice@example.com', token });
    await wallet.listProviders({ user: 'alice@example.com' });
    const { state } = await vault.startLogin({ account: 'customer-8' });
    await vault.receive({ user_email: 'alice@example.com', token }); // the service sends it again
    expect(await vault.completeLogin(state, { client: wallet })).toMatchObject({ status: 'pending' });
  });

  test('bad options are typed errors naming the field', async () => {
    const { vault } = connectedVault();
    await expect(vault.startLogin({ account: '' })).rejects.toBeInstanceOf(WalletRequestValidationError);
    await expect(vault.startLogin({ account: 'a', ttlMs: -1 })).rejects.toThrow(/ttlMs/);
    await expect(vault.startLogin({ account: 'a', expectedEmail: 'nope' })).rejects.toThrow(/expectedEmail/);
    const { vault: bare } = vaultWith();
    await expect(bare.startLogin({ account: 'a' })).rejects.toBeInstanceOf(WalletConfigError);
  });
});
