import { describe, expect, test, vi } from 'vitest';
import {
  createMemoryDedupeStore,
  createMemoryJournal,
  isReauthorizationRequired,
  isWalletApiError,
  type ReauthorizationNotice,
  WalletApiError,
  WalletReauthorizationRequiredError,
  WalletRequestValidationError,
} from '../../src/index.js';
import { outcomesWritten } from '../helpers/written-behind.js';
import { useServerTarget } from '../integration/harness.js';
import { APP_ID, vaultWith } from './keys.js';

const target = useServerTarget();

const body = (amount = 10) => ({ reference_id: `ref-${crypto.randomUUID()}`, amount, currency: 'KES' });
/** Lets notices already started finish: the hook runs on a later turn of the event loop. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 50));
const login = () => ({ authUrl: target().authUrl, redirectUrl: 'http://127.0.0.1:3000/connected' });

/** Approves the demo shop as `email` in the sandbox and hands the `user_authorized` event to `vault`. */
async function connect(vault: ReturnType<typeof vaultWith>['vault'], email: string): Promise<string> {
  const token = target().sandbox.authorize({ email, appId: APP_ID });
  await vault.receive({ user_email: email, token });
  return token;
}

describe('the token lifecycle', () => {
  test('a first token is used at once and promoted by its first successful call', async () => {
    const { vault, store } = vaultWith();
    const wallet = target().client('node', { tokens: vault });
    const token = await connect(vault, 'alice@example.com');
    expect(await store.get('user:alice@example.com')).toMatch(/^\{"candidate"/);
    const result = await wallet.deposit(body(), { user: 'Alice@Example.com' });
    expect(result.transaction_status).toBe('completed');
    expect(await store.get('user:alice@example.com')).toMatch(/^\{"current"/);
    expect(await vault.tokenFor('alice@example.com')).toBe(token);
  });

  test('a new authorization waits as a candidate: a forged one never replaces a token that works', async () => {
    const { vault } = vaultWith();
    const wallet = target().client('node', { tokens: vault });
    const token = await connect(vault, 'alice@example.com');
    await wallet.listProviders({ user: 'alice@example.com' });
    await vault.receive({ user_email: 'alice@example.com', token: 'tok_forged_by_someone' });
    expect(await vault.tokenFor('alice@example.com')).toBe(token);
    expect(await vault.confirm('alice@example.com', { client: wallet })).toBe(false);
    expect(await vault.tokenFor('alice@example.com')).toBe(token);
    await expect(wallet.deposit(body(), { user: 'alice@example.com' })).resolves.toBeDefined();
  });

  test('confirm() checks the candidate with listProviders and promotes it', async () => {
    const { vault } = vaultWith();
    const wallet = target().client('node', { tokens: vault });
    await connect(vault, 'alice@example.com');
    await wallet.listProviders({ user: 'alice@example.com' });
    const fresh = await connect(vault, 'alice@example.com'); // re-approving revokes the old token
    expect(await vault.confirm('alice@example.com', { client: wallet })).toBe(true);
    expect(await vault.tokenFor('alice@example.com')).toBe(fresh);
    expect(await vault.confirm('alice@example.com', { client: wallet })).toBe(false); // nothing left to confirm
  });

  test('confirm() takes the client to check with, and names the field without one', async () => {
    const { vault } = vaultWith();
    await vault.receive({ user_email: 'alice@example.com', token: 'tok_x' });
    await expect(vault.confirm('alice@example.com', undefined as never)).rejects.toThrow(
      WalletRequestValidationError,
    );
    await expect(vault.confirm('alice@example.com', {} as never)).rejects.toThrow(/client/);
  });

  test('forget(email, token) deletes only that token; forget(email) deletes both', async () => {
    const { vault } = vaultWith();
    await vault.receive({ user_email: 'alice@example.com', token: 'tok_one' });
    expect(await vault.forget('alice@example.com', 'tok_other')).toBe(false);
    expect(await vault.tokenFor('alice@example.com')).toBe('tok_one');
    expect(await vault.forget('alice@example.com', 'tok_one')).toBe(true);
    expect(await vault.tokenFor('alice@example.com')).toBeUndefined();
    await vault.receive({ user_email: 'alice@example.com', token: 'tok_two' });
    expect(await vault.forget('alice@example.com')).toBe(true);
    expect(await vault.forget('alice@example.com')).toBe(false);
  });

  test('user and userToken together, or user without a vault, are refused before anything is sent', async () => {
    const { vault } = vaultWith();
    const wallet = target().client('node', { tokens: vault });
    const plain = target().client('node');
    const before = target().sandbox.transactions().length;
    await expect(
      wallet.deposit(body(), { user: 'alice@example.com', userToken: 'tok_x' } as never),
    ).rejects.toThrow(/options\.user.*userToken/);
    await expect(plain.deposit(body(), { user: 'alice@example.com' })).rejects.toThrow(/tokens: vault/);
    await expect(wallet.deposit(body(), { user: 'nobody' })).rejects.toBeInstanceOf(
      WalletRequestValidationError,
    );
    expect(target().sandbox.transactions()).toHaveLength(before);
  });

  test('the tokens option must be a vault', () => {
    expect(() => target().client('node', { tokens: {} as never })).toThrow(/tokens.*createTokenVault/);
  });
});

describe('re-authorization', () => {
  test('a refusal of a token another call replaced meanwhile is thrown as it is: no re-authorization, no notice', async () => {
    const notices: ReauthorizationNotice[] = [];
    const { vault } = vaultWith({
      login: login(),
      onReauthorizationRequired: (notice) => void notices.push(notice),
    });
    const wallet = target().client('node', { tokens: vault, maxRetries: 0 });
    await connect(vault, 'alice@example.com');
    await wallet.listProviders({ user: 'alice@example.com' });
    const fault = target().sandbox.faults.inject({ kind: 'latency', route: 'deposit', ms: 300, every: 1 });
    // Sent with the token in use; while it waits, Alice approves the shop again (which revokes that
    // token) and another call promotes her new one.
    const slow = wallet.deposit(body(), { user: 'alice@example.com' }).catch((caught: unknown) => caught);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const fresh = await connect(vault, 'alice@example.com');
    await wallet.listProviders({ user: 'alice@example.com' });
    expect(await vault.tokenFor('alice@example.com')).toBe(fresh);
    const error = await slow;
    fault.remove();
    await settled();
    expect(error).toBeInstanceOf(WalletApiError);
    expect(error).not.toBeInstanceOf(WalletReauthorizationRequiredError);
    expect(isWalletApiError(error, 'application_not_authorized')).toBe(true);
    expect(notices).toEqual([]);
    expect(await vault.tokenFor('alice@example.com')).toBe(fresh);
    await expect(wallet.deposit(body(), { user: 'alice@example.com' })).resolves.toMatchObject({
      transaction_status: 'completed',
    });
  });

  test('a revoked token becomes WalletReauthorizationRequiredError with a login URL, and is forgotten', async () => {
    const { vault } = vaultWith({ login: login() });
    const wallet = target().client('node', { tokens: vault });
    await connect(vault, 'alice@example.com');
    await wallet.deposit(body(), { user: 'alice@example.com' });
    target().sandbox.revoke({ email: 'alice@example.com' });
    const error = await wallet
      .deposit(body(), { user: 'alice@example.com' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WalletReauthorizationRequiredError);
    expect(error).toBeInstanceOf(WalletApiError);
    expect(isReauthorizationRequired(error)).toBe(true);
    expect(isWalletApiError(error, 'application_not_authorized')).toBe(true);
    const refused = error as WalletReauthorizationRequiredError;
    expect(refused).toMatchObject({
      userEmail: 'alice@example.com',
      sent: true,
      status: 403,
      endpoint: 'deposit',
    });
    const opened = await fetch(refused.loginUrl as string);
    expect(opened.status).toBe(200);
    expect(new URL(refused.loginUrl as string).searchParams.get('app_id')).toBe(APP_ID);
    expect(await vault.tokenFor('alice@example.com')).toBeUndefined();

    const next = await wallet
      .deposit(body(), { user: 'alice@example.com' })
      .catch((caught: unknown) => caught);
    expect(next).toMatchObject({ name: 'WalletReauthorizationRequiredError', sent: false, status: 0 });
  });

  test('reconnecting after a revocation makes deposits by e-mail work again', async () => {
    const { vault } = vaultWith();
    const wallet = target().client('node', { tokens: vault });
    await connect(vault, 'alice@example.com');
    target().sandbox.revoke({ email: 'alice@example.com' });
    await expect(wallet.listProviders({ user: 'alice@example.com' })).rejects.toSatisfy(
      isReauthorizationRequired,
    );
    await connect(vault, 'alice@example.com');
    await expect(wallet.deposit(body(), { user: 'alice@example.com' })).resolves.toMatchObject({
      transaction_status: 'completed',
    });
  });

  test('a token received after a revocation is checked before the next payment, which then succeeds first try', async () => {
    const { vault } = vaultWith();
    const wallet = target().client('node', { tokens: vault });
    await connect(vault, 'alice@example.com');
    await wallet.listProviders({ user: 'alice@example.com' });
    target().sandbox.revoke({ email: 'alice@example.com' });
    const fresh = target().sandbox.authorize({ email: 'alice@example.com', appId: APP_ID });
    await vault.receive({ user_email: 'alice@example.com', token: fresh });
    // The re-approval's token is checked before the payment and replaces the revoked one.
    await expect(wallet.deposit(body(), { user: 'alice@example.com' })).resolves.toBeDefined();
    expect(await vault.tokenFor('alice@example.com')).toBe(fresh);
  });

  test('onReauthorizationRequired fires once per refused token across instances sharing the dedupe store', async () => {
    const notices: ReauthorizationNotice[] = [];
    const dedupe = createMemoryDedupeStore();
    const shared = vaultWith({ onReauthorizationRequired: (notice) => void notices.push(notice), dedupe });
    const second = vaultWith({
      store: shared.store,
      keys: shared.keys,
      onReauthorizationRequired: (notice) => void notices.push(notice),
      dedupe,
    });
    const walletA = target().client('node', { tokens: shared.vault });
    const walletB = target().client('node', { tokens: second.vault });
    await connect(shared.vault, 'alice@example.com');
    await walletA.listProviders({ user: 'alice@example.com' });
    target().sandbox.revoke({ email: 'alice@example.com' });
    const tries = await Promise.allSettled([
      walletA.deposit(body(), { user: 'alice@example.com' }),
      walletB.deposit(body(), { user: 'alice@example.com' }),
      walletB.listProviders({ user: 'alice@example.com' }),
    ]);
    for (const outcome of tries) expect(outcome.status).toBe('rejected');
    await vi.waitFor(() => expect(notices).toHaveLength(1));
    await settled();
    expect(notices).toEqual([
      { userEmail: 'alice@example.com', loginUrl: undefined, code: 'application_not_authorized' },
    ]);

    await connect(shared.vault, 'alice@example.com');
    target().sandbox.revoke({ email: 'alice@example.com' });
    await walletA.deposit(body(), { user: 'alice@example.com' }).catch(() => {});
    await vi.waitFor(() => expect(notices).toHaveLength(2));
  });

  test('a hook that throws is logged without the token, and the payment error still reaches the caller', async () => {
    const warnings: unknown[] = [];
    const { vault } = vaultWith({
      onReauthorizationRequired: () => {
        throw new Error('mail server down');
      },
      logger: { warn: (...args) => warnings.push(args) },
    });
    const wallet = target().client('node', { tokens: vault });
    const token = await connect(vault, 'alice@example.com');
    target().sandbox.revoke({ email: 'alice@example.com' });
    await expect(wallet.deposit(body(), { user: 'alice@example.com' })).rejects.toSatisfy(
      isReauthorizationRequired,
    );
    await vi.waitFor(() => expect(warnings).toHaveLength(1));
    expect(JSON.stringify(warnings)).not.toContain(token);
  });
});

describe('the journal and recover() with a vault', () => {
  test('deposit intents record the user e-mail, and recover() finds the token in the vault', async () => {
    const journal = createMemoryJournal();
    const { vault } = vaultWith();
    const wallet = target().client('node', { tokens: vault, journal });
    await connect(vault, 'alice@example.com');
    const first = body();
    await wallet.deposit(first, { user: 'alice@example.com' });
    await outcomesWritten(journal, first.reference_id);
    expect(await journal.get(first.reference_id)).toMatchObject({
      userEmail: 'alice@example.com',
      state: 'completed',
    });

    const crashed = body();
    await journal.record({
      referenceId: crashed.reference_id,
      endpoint: 'deposit',
      body: crashed,
      userEmail: 'alice@example.com',
    });
    const report = await wallet.recover();
    expect(report.intents).toEqual([
      expect.objectContaining({ referenceId: crashed.reference_id, outcome: 'applied' }),
    ]);
    expect(await journal.get(crashed.reference_id)).toMatchObject({ state: 'completed' });
  });

  test('recover() skips a deposit whose user has no token, saying so', async () => {
    const journal = createMemoryJournal();
    const { vault } = vaultWith();
    const wallet = target().client('node', { tokens: vault, journal });
    const crashed = body();
    await journal.record({
      referenceId: crashed.reference_id,
      endpoint: 'deposit',
      body: crashed,
      userEmail: 'bob@example.com',
    });
    const report = await wallet.recover();
    expect(report.intents[0]).toMatchObject({
      outcome: 'skipped',
      reason: expect.stringContaining('bob@example.com'),
    });
  });
});
