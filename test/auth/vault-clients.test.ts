import { describe, expect, test } from 'vitest';
import { useServerTarget } from '../integration/harness.js';
import { APP_ID, vaultWith } from './keys.js';

const target = useServerTarget();
const ALICE = 'alice@example.com';
const body = () => ({ reference_id: `ref-${crypto.randomUUID()}`, amount: 10, currency: 'KES' });

describe('the vault holds no client', () => {
  test('closing a derived client never breaks its parent: payments and confirm keep working', async () => {
    const { vault } = vaultWith();
    const wallet = target().client('node', { tokens: vault });
    const derived = wallet.withOptions({ maxRetries: 0 });
    await vault.receive({
      user_email: ALICE,
      token: target().sandbox.authorize({ email: ALICE, appId: APP_ID }),
    });
    await derived.close();
    await expect(wallet.deposit(body(), { user: ALICE })).resolves.toMatchObject({
      transaction_status: 'completed',
    });
    const fresh = target().sandbox.authorize({ email: ALICE, appId: APP_ID });
    await vault.receive({ user_email: ALICE, token: fresh });
    expect(await vault.confirm(ALICE, { client: wallet })).toBe(true);
    expect(await vault.tokenFor(ALICE)).toBe(fresh);
  });

  test("another merchant's client sharing the vault never acts for this one, nor breaks it by closing", async () => {
    const { vault } = vaultWith();
    const wallet = target().client('node', { tokens: vault });
    const other = target().client('node', { tokens: vault, apiKey: 'sk_sandbox_other_shop' });
    await other.close();
    const fresh = target().sandbox.authorize({ email: ALICE, appId: APP_ID });
    await vault.receive({ user_email: ALICE, token: fresh });
    // The check goes through this merchant's client: the other merchant would have seen the
    // token refused (not its app) and dropped it.
    expect(await vault.confirm(ALICE, { client: wallet })).toBe(true);
    await expect(wallet.deposit(body(), { user: ALICE })).resolves.toMatchObject({
      transaction_status: 'completed',
    });
  });

  test('a closed client refuses its own { user } calls without touching the vault', async () => {
    const { vault } = vaultWith();
    const wallet = target().client('node', { tokens: vault });
    const fresh = target().sandbox.authorize({ email: ALICE, appId: APP_ID });
    await vault.receive({ user_email: ALICE, token: fresh });
    await wallet.close();
    await expect(wallet.deposit(body(), { user: ALICE })).rejects.toThrow(/closed/);
    expect(await vault.tokenFor(ALICE)).toBe(fresh);
  });
});
