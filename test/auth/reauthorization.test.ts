import { describe, expect, test, vi } from 'vitest';
import {
  isReauthorizationRequired,
  type ReauthorizationNotice,
  type WalletReauthorizationRequiredError,
} from '../../src/index.js';
import { useServerTarget } from '../integration/harness.js';
import { APP_ID, vaultWith } from './keys.js';

const target = useServerTarget();
const ALICE = 'alice@example.com';

const body = () => ({ reference_id: `ref-${crypto.randomUUID()}`, amount: 10, currency: 'KES' });
/** Lets notices already started finish: the hook runs on a later turn of the event loop. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 50));
const stateOf = (loginUrl: string) =>
  new URL(new URL(loginUrl).searchParams.get('redirect_url') as string).searchParams.get('state') as string;

function setUp(options: Parameters<typeof vaultWith>[0] = {}) {
  const notices: ReauthorizationNotice[] = [];
  const made = vaultWith({
    login: { authUrl: target().authUrl, redirectUrl: 'http://127.0.0.1:3000/connected' },
    onReauthorizationRequired: (notice) => void notices.push(notice),
    ...options,
  });
  const wallet = target().client('node', { tokens: made.vault });
  /** The user approves the app in the wallet: the sandbox sends `user_authorized`, the vault takes it. */
  const approve = async (email = ALICE) => {
    const token = target().sandbox.authorize({ email, appId: APP_ID });
    await made.vault.receive({ user_email: email, token });
    return token;
  };
  return { ...made, wallet, notices, approve };
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('the call succeeded');
    },
    (error: unknown) => {
      expect(isReauthorizationRequired(error)).toBe(true);
      return error as WalletReauthorizationRequiredError;
    },
  );

describe('re-authorization that ends', () => {
  test('the error of a revoked token carries a login bound to the user; completing it makes the next payment succeed first try', async () => {
    const { vault, wallet, approve, notices } = setUp();
    await approve();
    await wallet.deposit(body(), { user: ALICE });
    target().sandbox.revoke({ email: ALICE });
    const error = await refusal(wallet.deposit(body(), { user: ALICE }));
    const state = stateOf(error.loginUrl as string);
    expect(state).toMatch(/^[\w-]{22}$/);

    // The user follows error.loginUrl and approves; the redirect page completes the login.
    await approve();
    expect(await vault.completeLogin(state, { client: wallet })).toEqual({
      status: 'connected',
      account: ALICE,
      email: ALICE,
    });
    await expect(wallet.deposit(body(), { user: ALICE })).resolves.toMatchObject({
      transaction_status: 'completed',
    });
    await settled();
    expect(notices).toHaveLength(1);
  });

  test('a user who re-approves without finishing the login still pays first try: the new token is checked before the payment', async () => {
    const { wallet, approve } = setUp();
    await approve();
    await wallet.listProviders({ user: ALICE });
    target().sandbox.revoke({ email: ALICE });
    await refusal(wallet.deposit(body(), { user: ALICE }));
    await approve();
    const before = target().sandbox.transactions().length;
    await expect(wallet.deposit(body(), { user: ALICE })).resolves.toMatchObject({
      transaction_status: 'completed',
    });
    expect(target().sandbox.transactions()).toHaveLength(before + 1);
  });

  test("the notice's login URL carries a state of its own, bound to the user", async () => {
    const { vault, wallet, approve, notices } = setUp();
    await approve();
    await wallet.listProviders({ user: ALICE });
    target().sandbox.revoke({ email: ALICE });
    const error = await refusal(wallet.deposit(body(), { user: ALICE }));
    await vi.waitFor(() => expect(notices).toHaveLength(1));
    const noticeState = stateOf(notices[0]?.loginUrl as string);
    expect(noticeState).not.toBe(stateOf(error.loginUrl as string));
    await approve('bob@example.com'); // another user's authorization never matches it
    expect(await vault.completeLogin(noticeState, { client: wallet })).toMatchObject({ status: 'pending' });
    await approve();
    expect(await vault.completeLogin(noticeState, { client: wallet })).toMatchObject({
      status: 'connected',
      email: ALICE,
    });
  });

  test('vault.reconnect starts a login bound to the user, for your own account id', async () => {
    const { vault, wallet, approve } = setUp();
    const login = await vault.reconnect('Alice@Example.com', { account: 'customer-7' });
    await approve();
    expect(await vault.completeLogin(login.state, { client: wallet })).toMatchObject({
      status: 'connected',
      account: 'customer-7',
      email: ALICE,
    });
  });

  test('a re-approval retires the old token: the next payment uses the new one at once, and nobody is told to reconnect', async () => {
    const { vault, wallet, approve, notices } = setUp();
    await approve();
    await wallet.deposit(body(), { user: ALICE });
    const fresh = await approve(); // the sandbox revokes the earlier token, as the service does
    await expect(wallet.deposit(body(), { user: ALICE })).resolves.toMatchObject({
      transaction_status: 'completed',
    });
    expect(await vault.tokenFor(ALICE)).toBe(fresh);
    await settled();
    expect(notices).toEqual([]);
  });
});

describe('hooks never hold a payment', () => {
  test('a hook that never settles does not hold the payment, and starts after the caller has its error', async () => {
    let callerHasError = false;
    const started: boolean[] = [];
    const { wallet, approve } = setUp({
      onReauthorizationRequired: () => {
        started.push(callerHasError);
        return new Promise<void>(() => {});
      },
    });
    await approve();
    await wallet.listProviders({ user: ALICE });
    target().sandbox.revoke({ email: ALICE });
    await refusal(wallet.deposit(body(), { user: ALICE }));
    callerHasError = true;
    await vi.waitFor(() => expect(started).toEqual([true]));
  });

  test('a hook that rejects is logged with the e-mail and the error name only', async () => {
    const warnings: unknown[][] = [];
    const { wallet, approve } = setUp({
      onReauthorizationRequired: async () => {
        throw new Error('mail server down');
      },
      logger: { warn: (...args) => warnings.push(args) },
    });
    const token = await approve();
    await wallet.listProviders({ user: ALICE });
    target().sandbox.revoke({ email: ALICE });
    await refusal(wallet.deposit(body(), { user: ALICE }));
    await vi.waitFor(() => expect(warnings).toHaveLength(1));
    expect(warnings[0]).toEqual(['onReauthorizationRequired failed', { userEmail: ALICE, error: 'Error' }]);
    expect(JSON.stringify(warnings)).not.toContain(token);
  });
});

describe('the error names the call', () => {
  test('a deposit for a user with no token names the deposit endpoint, and its code once', async () => {
    const { wallet } = setUp();
    const error = await refusal(wallet.deposit(body(), { user: ALICE }));
    expect(error).toMatchObject({ endpoint: 'deposit', sent: false, status: 0 });
    expect(error.message.split('authorization_token_not_found')).toHaveLength(2);
    expect(error.message).toContain('deposit');
    const listing = await refusal(wallet.listProviders({ user: ALICE }));
    expect(listing.endpoint).toBe('providers');
  });

  test('a refused deposit names the deposit endpoint, and its code once', async () => {
    const { wallet, approve } = setUp();
    await approve();
    await wallet.listProviders({ user: ALICE });
    target().sandbox.revoke({ email: ALICE });
    const error = await refusal(wallet.deposit(body(), { user: ALICE }));
    expect(error).toMatchObject({ endpoint: 'deposit', sent: true, status: 403 });
    expect(error.message.split('application_not_authorized')).toHaveLength(2);
  });
});
