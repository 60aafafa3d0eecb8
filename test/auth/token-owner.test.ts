import { afterEach, describe, expect, test, vi } from 'vitest';
import { UNPROVEN_OWNER_TTL_MS } from '../../src/auth/token-owners.js';
import { createTokenVault, isReauthorizationRequired } from '../../src/index.js';
import { useServerTarget } from '../integration/harness.js';
import { APP_ID, newKey, vaultWith } from './keys.js';

const target = useServerTarget();
const ALICE = 'alice@example.com';
const BOB = 'bob@example.com';
const body = () => ({ reference_id: `ref-${crypto.randomUUID()}`, amount: 10, currency: 'KES' });
const login = () => ({ authUrl: target().authUrl, redirectUrl: 'http://127.0.0.1:3000/connected' });

/** Approves the demo shop as Bob in the sandbox and delivers his token to `vault` for him. */
async function bobConnects(vault: ReturnType<typeof vaultWith>['vault']): Promise<string> {
  const token = target().sandbox.authorize({ email: BOB, appId: APP_ID });
  await vault.receive({ user_email: BOB, token });
  return token;
}

afterEach(() => vi.useRealTimers());

describe('a token belongs to the first e-mail it is delivered for', () => {
  test('a binding lasts two days until the token works for a call, then for good', async () => {
    const { vault, store } = vaultWith();
    const wallet = target().client('node', { tokens: vault });
    const owners = async () => (await store.scan('owner:', undefined, 100)).map((entry) => entry.value);
    await vault.receive({ user_email: ALICE, token: 'tok_forged_never_works' });
    const token = await bobConnects(vault);
    expect((await owners()).sort()).toEqual([ALICE, BOB]);
    await wallet.listProviders({ user: BOB });
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + UNPROVEN_OWNER_TTL_MS + 1_000 });
    // The forged delivery's binding is gone; Bob's, proven by his call, is not.
    expect(await owners()).toEqual([BOB]);
    await vault.receive({ user_email: ALICE, token });
    expect(await vault.tokenFor(ALICE)).toBe('tok_forged_never_works');
  });

  test("Bob's leaked token delivered for Alice is ignored, logged without the token, and never pays for Alice", async () => {
    const warnings: unknown[] = [];
    const { vault, store } = vaultWith({ logger: { warn: (...args) => warnings.push(args) } });
    const wallet = target().client('node', { tokens: vault });
    const token = await bobConnects(vault);
    await vault.receive({ user_email: ALICE, token });
    expect(await store.get(`user:${ALICE}`)).toBeUndefined();
    expect(await vault.tokenFor(ALICE)).toBeUndefined();
    const before = target().sandbox.transactions().length;
    await expect(wallet.deposit(body(), { user: ALICE })).rejects.toSatisfy(isReauthorizationRequired);
    expect(target().sandbox.transactions()).toHaveLength(before);
    expect(warnings).toHaveLength(1);
    expect(JSON.stringify(warnings)).toContain(ALICE);
    expect(JSON.stringify(warnings)).not.toContain(token);
  });

  test("Bob's own delivery of his token still works, as does its repeat", async () => {
    const { vault } = vaultWith();
    const wallet = target().client('node', { tokens: vault });
    const token = await bobConnects(vault);
    await vault.receive({ user_email: 'Bob@Example.com', token });
    await expect(wallet.deposit(body(), { user: BOB })).resolves.toMatchObject({
      transaction_status: 'completed',
    });
    await vault.forget(BOB);
    await vault.receive({ user_email: BOB, token });
    expect(await vault.tokenFor(BOB)).toBe(token);
  });

  test("a login with Bob's leaked token delivered for another e-mail never connects", async () => {
    const { vault } = vaultWith({ login: login() });
    const wallet = target().client('node', { tokens: vault });
    const token = await bobConnects(vault);
    const { state } = await vault.startLogin({ account: 'mallory-account' });
    await vault.receive({ user_email: 'mallory@example.com', token });
    expect(await vault.completeLogin(state, { client: wallet })).toMatchObject({ status: 'pending' });
    expect(await vault.completeLogin(state, { client: wallet, email: 'mallory@example.com' })).toMatchObject({
      status: 'pending',
    });
  });

  test('after a rotation, a rewrap and the old key retired, a leaked re-sealed token is still refused', async () => {
    const k1 = newKey();
    const k2 = newKey();
    const { vault, store } = vaultWith({ keys: { primary: 'k1', keys: { k1 } } });
    const token = await bobConnects(vault);
    const rotated = createTokenVault({ store, appId: APP_ID, keys: { primary: 'k2', keys: { k1, k2 } } });
    expect(await rotated.rewrap()).toMatchObject({ rewrapped: 1, unreadable: 0 });
    const retired = createTokenVault({ store, appId: APP_ID, keys: { primary: 'k2', keys: { k2 } } });
    await retired.receive({ user_email: ALICE, token });
    expect(await retired.tokenFor(ALICE)).toBeUndefined();
    expect(await retired.tokenFor(BOB)).toBe(token);
  });

  test('two deliveries of one token for two e-mails at once bind it to at most one of them', async () => {
    const { vault: first, store, keys } = vaultWith();
    const second = createTokenVault({ store, keys, appId: APP_ID });
    const token = target().sandbox.authorize({ email: BOB, appId: APP_ID });
    await Promise.all([
      first.receive({ user_email: ALICE, token }),
      second.receive({ user_email: BOB, token }),
    ]);
    const held = await Promise.all([ALICE, BOB].map((email) => first.tokenFor(email)));
    expect(held.filter((found) => found === token)).toHaveLength(1);
  });
});
