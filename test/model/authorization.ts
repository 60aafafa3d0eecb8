/**
 * A model-based test of authorization: random sequences of steps, each a group of commands run at
 * once on several vault instances sharing one token store and one dedupe store, against the
 * sandbox over real HTTP. Commands: startLogin, approve (one user or several), completeLogin,
 * receive (genuine, duplicated, forged, oversized, another user's leaked token), confirm, forget, revoke, re-approve, a key
 * rotation with rewrap and retirement, `{ user }` payments, and the reconnect trip a merchant makes
 * from a `WalletReauthorizationRequiredError`. The rules checked are listed on `AuthWorld.broken`.
 */
import { inspect } from 'node:util';
import fc from 'fast-check';
import { loadKeyring } from '../../src/auth/keyring.js';
import { isTokenRefusal } from '../../src/auth/reauthorization.js';
import { tokenCipher } from '../../src/auth/token-cipher.js';
import {
  createMemoryTokenStore,
  createTokenVault,
  isReauthorizationRequired,
  type TokenKeyring,
  type TokenStore,
  type TokenVault,
  WalletClient,
  WalletRequestValidationError,
} from '../../src/index.js';
import type { Sandbox } from '../../src/testing/index.js';
import { createMemoryDedupeStore, type WebhookDedupeStore } from '../../src/webhooks/index.js';

const APP_ID = 'app_demo_shop';
const API_KEY = 'sk_sandbox_demo_shop';
const USERS = ['alice@example.com', 'bob@example.com'] as const;
const INSTANCES = 3;
const ACCOUNTS = 3;
const key = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64');

type User = 0 | 1;

/** One command of a group. */
export type AuthCommand =
  | {
      readonly kind: 'startLogin';
      readonly on: number;
      readonly account: number;
      readonly user: User;
      readonly expected: boolean;
    }
  | { readonly kind: 'approve'; readonly login: number; readonly also: User | undefined }
  | {
      readonly kind: 'completeLogin';
      readonly on: number;
      readonly login: number;
      readonly email: boolean;
    }
  | {
      readonly kind: 'receive';
      readonly on: number;
      readonly user: User;
      readonly what: 'duplicate' | 'forged' | 'oversized' | 'stolen';
    }
  | { readonly kind: 'confirm'; readonly on: number; readonly user: User }
  | { readonly kind: 'forget'; readonly on: number; readonly user: User }
  | { readonly kind: 'revoke'; readonly user: User }
  | { readonly kind: 'reapprove'; readonly on: number; readonly user: User }
  | { readonly kind: 'rotate' }
  | { readonly kind: 'rewrap'; readonly on: number }
  | { readonly kind: 'retire' }
  | { readonly kind: 'pay'; readonly on: number; readonly user: User }
  | { readonly kind: 'reconnect'; readonly on: number; readonly user: User };

/** A step: commands started together (one alone for the reconnect trip). */
export type AuthStep = readonly AuthCommand[];

const on = fc.nat(INSTANCES - 1);
const user = fc.constantFrom<User>(0, 1);
const command: fc.Arbitrary<AuthCommand> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('startLogin' as const),
      on,
      account: fc.nat(ACCOUNTS - 1),
      user,
      expected: fc.boolean(),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('approve' as const),
      login: fc.nat(5),
      also: fc.option(user, { nil: undefined, freq: 3 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('completeLogin' as const),
      on,
      login: fc.nat(5),
      email: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('receive' as const),
      on,
      user,
      what: fc.constantFrom('duplicate' as const, 'forged' as const, 'oversized' as const, 'stolen' as const),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('confirm' as const), on, user }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('forget' as const), on, user }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('revoke' as const), user }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('reapprove' as const), on, user }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'rotate' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rewrap' as const), on }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'retire' as const }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('pay' as const), on, user }) },
);

/** Steps: a group of one to three commands run at once, or a reconnect trip on its own. */
export const stepArbitrary: fc.Arbitrary<AuthStep> = fc.oneof(
  { weight: 6, arbitrary: fc.array(command, { minLength: 1, maxLength: 3 }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('reconnect' as const), on, user }).map((one) => [one]),
  },
);

interface Login {
  readonly state: string;
  readonly account: string;
  readonly user: User;
  readonly expected: boolean;
  /** A time (ms) before the login started: an authorization it matches reached the vault in or after that millisecond. */
  readonly before: number;
}

interface Instance {
  vault: TokenVault;
  readonly wallet: WalletClient;
}

/** One sequence's world: the sandbox (reset), one token store and one dedupe store for every instance. */
export class AuthWorld {
  readonly store: TokenStore = createMemoryTokenStore();
  readonly #claimedNotices = new Set<string>();
  readonly dedupe: WebhookDedupeStore;
  readonly logs: string[] = [];
  /** Every token the service issued or a forger made, by user: none may ever appear in plain text. */
  readonly tokens = new Set<string>();
  /** Receive order of each token, by user, to tell a revert from a promotion. */
  readonly #order = new Map<string, number>();
  /** Each user's latest token from the service. */
  readonly #genuine = new Map<string, string>();
  /** The user the service issued each token to. */
  readonly #issuedTo = new Map<string, string>();
  /**
   * Tokens whose delivery to their own user has ended, and the key id their owner entry was made
   * under: each is bound to its user, so a delivery of it under another e-mail must be refused.
   */
  readonly #bound = new Map<string, { email: string; under: string }>();
  /** When each user's authorizations reached the vault. */
  readonly #approvedAt = new Map<string, number[]>();
  /** Every connected login, checked after its step (its authorization may still be landing). */
  readonly #links: Array<{ login: Login; email: string }> = [];
  /** Clients replaced by a deploy, closed at the end (commands of the step may still use them). */
  readonly #retired: WalletClient[] = [];
  readonly #lastCurrent = new Map<string, number>();
  readonly logins: Login[] = [];
  /** Connected logins by e-mail, and authorizations sent by e-mail. */
  readonly connected = new Map<string, number>();
  readonly authorizations = new Map<string, number>();
  readonly problems: string[] = [];
  readonly #errors = new Map<string, string>();
  notices = 0;
  #keys: TokenKeyring = { primary: 'k1', keys: { k1: key() } };
  /** Commands started while `k1` was primary and still running. */
  readonly #callsUnderK1 = new Set<Promise<void>>();
  readonly instances: Instance[];
  #serial = 0;

  constructor(
    readonly sandbox: Sandbox,
    readonly baseUrl: string,
    readonly authUrl: string,
  ) {
    const dedupe = createMemoryDedupeStore();
    this.dedupe = {
      ...dedupe,
      claim: (claimKey, leaseMs) => {
        this.#claimedNotices.add(claimKey);
        return dedupe.claim(claimKey, leaseMs);
      },
    } as WebhookDedupeStore;
    this.instances = Array.from({ length: INSTANCES }, () => {
      const vault = this.#vault();
      return { vault, wallet: new WalletClient({ apiKey: API_KEY, baseUrl, maxRetries: 0, tokens: vault }) };
    });
  }

  #vault(): TokenVault {
    const log = (level: string) => (message: string, fields?: unknown) =>
      this.logs.push(`${level} ${message} ${JSON.stringify(fields)}`);
    return createTokenVault({
      store: this.store,
      keys: this.#keys,
      appId: APP_ID,
      login: { authUrl: this.authUrl, redirectUrl: 'http://127.0.0.1:3000/connected' },
      dedupe: this.dedupe,
      onReauthorizationRequired: () => {
        this.notices += 1;
      },
      logger: { warn: log('warn'), error: log('error'), info: log('info'), debug: log('debug') },
    });
  }

  /** Gives every instance a vault on the keyring now in force, as a deploy does; the wallets stay. */
  #deploy(): void {
    for (const instance of this.instances) {
      this.#retired.push(instance.wallet);
      const vault = this.#vault();
      instance.vault = vault;
      (instance as { wallet: WalletClient }).wallet = new WalletClient({
        apiKey: API_KEY,
        baseUrl: this.baseUrl,
        maxRetries: 0,
        tokens: vault,
      });
    }
  }

  #instance(index: number): Instance {
    return this.instances[index % INSTANCES] as Instance;
  }

  /** The service's token for `email` after a (re-)approval, sent to the vault as `user_authorized`. */
  async #authorize(email: string, via: Instance): Promise<void> {
    const token = this.sandbox.authorize({ email, appId: APP_ID });
    this.#remember(token);
    this.#genuine.set(email, token);
    this.#issuedTo.set(token, email);
    this.authorizations.set(email, (this.authorizations.get(email) ?? 0) + 1);
    const under = this.#keys.primary;
    await via.vault.receive({ user_email: email, token });
    this.#bound.set(token, { email, under });
    this.#approvedAt.set(email, [...(this.#approvedAt.get(email) ?? []), Date.now()]);
  }

  #remember(token: string): void {
    this.tokens.add(token);
    this.#order.set(token, ++this.#serial);
  }

  /**
   * Runs one command. A command started while `k1` is primary is a call an instance on that keyring
   * may still be running after a deploy: retiring `k1` waits for it, as step 5 of a rotation runs once
   * the deploy of step 3 has finished, each instance on the earlier keyring stopped and its calls ended.
   */
  run(step: AuthCommand): Promise<void> {
    const call = this.#run(step);
    if (this.#keys.primary === 'k1' && step.kind !== 'rotate') {
      this.#callsUnderK1.add(call);
      void call.finally(() => this.#callsUnderK1.delete(call)).catch(() => {});
    }
    return call;
  }

  /** Runs one command; an error the merchant is told about is a result, anything else a problem. */
  async #run(step: AuthCommand): Promise<void> {
    switch (step.kind) {
      case 'startLogin': {
        const email = USERS[step.user];
        const before = Date.now();
        const started = await this.#instance(step.on).vault.startLogin({
          account: `account-${step.account}`,
          ...(step.expected ? { expectedEmail: email } : {}),
        });
        this.logins.push({
          state: started.state,
          account: `account-${step.account}`,
          user: step.user,
          expected: step.expected,
          before,
        });
        return;
      }
      case 'approve': {
        const login = this.logins[step.login % Math.max(1, this.logins.length)];
        if (login === undefined) return;
        const approvers = new Set([
          USERS[login.user],
          ...(step.also === undefined ? [] : [USERS[step.also]]),
        ]);
        await Promise.all([...approvers].map((email, at) => this.#authorize(email, this.#instance(at))));
        return;
      }
      case 'completeLogin':
        return this.#complete(step);
      case 'receive':
        return this.#receive(step);
      case 'confirm': {
        const instance = this.#instance(step.on);
        await instance.vault
          .confirm(USERS[step.user], { client: instance.wallet })
          .catch((error: unknown) => this.#unexpected('confirm', error));
        return;
      }
      case 'forget':
        await this.#instance(step.on).vault.forget(USERS[step.user]);
        return;
      case 'revoke':
        this.sandbox.revoke({ email: USERS[step.user], appId: APP_ID });
        return;
      case 'reapprove':
        return this.#authorize(USERS[step.user], this.#instance(step.on));
      case 'rotate': {
        // Steps 1 to 3 of docs/authorization.md: add the new key everywhere, then make it primary.
        const { k1, k2 } = this.#keys.keys;
        if (k2 === undefined) this.#keys = { primary: 'k1', keys: { k1, k2: key() } };
        else if (this.#keys.primary === 'k1') this.#keys = { primary: 'k2', keys: { k1, k2 } };
        else return;
        this.#deploy();
        return;
      }
      case 'rewrap':
        await this.#instance(step.on).vault.rewrap({ batchSize: 2 });
        return;
      case 'retire': {
        if (this.#keys.primary !== 'k2' || this.#keys.keys.k1 === undefined) return;
        // Step 5 of the rotation: retire k1 once the deploy has finished and a run rewraps nothing.
        await Promise.allSettled([...this.#callsUnderK1]);
        const vault = this.#instance(0).vault;
        while ((await vault.rewrap()).rewrapped > 0);
        await this.#forgetUnheldBindings();
        this.#keys = { primary: 'k2', keys: { k2: this.#keys.keys.k2 } };
        this.#deploy();
        return;
      }
      case 'pay':
        await this.#pay(step.on, step.user);
        return;
      case 'reconnect':
        return this.#reconnect(step.on, step.user);
    }
  }

  /**
   * Before `k1` is retired: a token bound under `k1` that no row holds was not re-sealed by the
   * rewrap, so its binding goes with the key (docs/authorization.md says so); a token a row holds
   * now is under `k2`, sealed by a delivery or a rewrap, each of which bound it under `k2`.
   */
  async #forgetUnheldBindings(): Promise<void> {
    const held = new Set((await this.#storedTokens()).map(({ token }) => token));
    for (const [token, { under }] of this.#bound) {
      if (under === 'k1' && !held.has(token)) this.#bound.delete(token);
    }
  }

  /** Every token the rows hold, current or candidate, opened under the keyring in force. */
  async #storedTokens(): Promise<Array<{ email: string; token: string }>> {
    const cipher = tokenCipher(loadKeyring(this.#keys), APP_ID);
    const found: Array<{ email: string; token: string }> = [];
    for (const { key: rowKey, value } of await this.store.scan('user:', undefined, 10_000)) {
      const email = rowKey.slice('user:'.length);
      const record = JSON.parse(value) as { current?: string; candidate?: string };
      for (const sealed of [record.current, record.candidate]) {
        if (sealed === undefined) continue;
        const token = await cipher.open(email, sealed).catch(() => undefined);
        if (token !== undefined) found.push({ email, token });
      }
    }
    return found;
  }

  async #complete(step: Extract<AuthCommand, { kind: 'completeLogin' }>): Promise<void> {
    const login = this.logins[step.login % Math.max(1, this.logins.length)];
    if (login === undefined) return;
    const instance = this.#instance(step.on);
    let answer: Awaited<ReturnType<TokenVault['completeLogin']>>;
    try {
      answer = await instance.vault.completeLogin(login.state, {
        client: instance.wallet,
        ...(step.email ? { email: USERS[login.user] } : {}),
      });
    } catch (error) {
      if (error instanceof Error && error.name === 'WalletLoginStateError') return;
      return this.#unexpected('completeLogin', error);
    }
    if (answer.status !== 'connected') return;
    this.connected.set(answer.email, (this.connected.get(answer.email) ?? 0) + 1);
    if (answer.account !== login.account)
      this.problems.push(`${login.state} connected ${answer.account}, not ${login.account}`);
    if (login.expected && answer.email !== USERS[login.user])
      this.problems.push(`a login expecting ${USERS[login.user]} linked ${answer.email}`);
    this.#links.push({ login, email: answer.email });
  }

  async #receive(step: Extract<AuthCommand, { kind: 'receive' }>): Promise<void> {
    const email = USERS[step.user];
    const vault = this.#instance(step.on).vault;
    if (step.what === 'duplicate') {
      // The service delivers the user's latest authorization again.
      const latest = this.#genuine.get(email);
      if (latest === undefined) return;
      this.authorizations.set(email, (this.authorizations.get(email) ?? 0) + 1);
      await vault.receive({ user_email: email, token: latest });
      // Once the vault has let it go, a late delivery is an arrival like any other.
      this.#approvedAt.set(email, [...(this.#approvedAt.get(email) ?? []), Date.now()]);
      return;
    }
    if (step.what === 'stolen') {
      // Whoever holds the other user's token (a leak) delivers it under this user's e-mail.
      const other = USERS[1 - step.user];
      const leaked = [...this.#bound].findLast(([, bound]) => bound.email === other)?.[0];
      if (leaked === undefined) return;
      await vault
        .receive({ user_email: email, token: leaked })
        .catch((error: unknown) => this.#unexpected('receive', error));
      return;
    }
    const token = step.what === 'forged' ? `tok_forged_${++this.#serial}` : `tok_forged_${'x'.repeat(5_000)}`;
    this.#remember(token);
    try {
      await vault.receive({ user_email: email, token });
      if (step.what === 'oversized') this.problems.push('an oversized token was stored');
    } catch (error) {
      if (!(step.what === 'oversized' && error instanceof WalletRequestValidationError))
        this.#unexpected('receive', error);
    }
  }

  async #pay(on: number, userIndex: User): Promise<boolean> {
    const email = USERS[userIndex];
    const { wallet } = this.#instance(on);
    try {
      await wallet.deposit(
        { reference_id: `auth-${++this.#serial}`, amount: 1, currency: 'KES' },
        { user: email },
      );
      return true;
    } catch (error) {
      this.#checkQuiet(error);
      if (isReauthorizationRequired(error)) {
        if (error.loginUrl !== undefined) this.#errors.set(email, error.loginUrl);
        return false;
      }
      // The token this payment was sent with was replaced while it waited (the user approved again
      // and another command promoted the new token): its refusal comes as it is, with no notice.
      if (isTokenRefusal(error)) return false;
      this.#unexpected('pay', error);
      return false;
    }
  }

  /** The merchant's path from the error: the user follows its login URL, approves, the redirect completes it, and pays. */
  async #reconnect(on: number, userIndex: User): Promise<void> {
    const email = USERS[userIndex];
    const loginUrl = this.#errors.get(email);
    if (loginUrl === undefined) return;
    this.#errors.delete(email);
    const state = new URL(new URL(loginUrl).searchParams.get('redirect_url') as string).searchParams.get(
      'state',
    ) as string;
    const instance = this.#instance(on);
    await this.#authorize(email, instance);
    const answer = await instance.vault
      .completeLogin(state, { client: instance.wallet })
      .catch((error: unknown) => error);
    if (
      (answer as { status?: string }).status !== 'connected' ||
      (answer as { email?: string }).email !== email
    ) {
      this.problems.push(`the reconnect login of ${email} answered ${inspect(answer)}`);
      return;
    }
    this.connected.set(email, (this.connected.get(email) ?? 0) + 1);
    if (!(await this.#pay(on + 1, userIndex)))
      this.problems.push(`${email} reconnected, and the next payment failed`);
  }

  #unexpected(what: string, error: unknown): void {
    this.#checkQuiet(error);
    this.problems.push(
      `${what} failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
    );
  }

  /** No token in an error's message, JSON or inspection. */
  #checkQuiet(error: unknown): void {
    const shown =
      error instanceof Error ? `${error.message} ${JSON.stringify(error)} ${inspect(error)}` : String(error);
    for (const token of this.tokens) if (shown.includes(token)) this.problems.push('an error shows a token');
  }

  /**
   * The rules after each step: an authorization links at most one account; no stored current token
   * is forged (a working token is never replaced by a forged one); no user's stored current or
   * candidate token is one the service issued to another user (a leaked token delivered under
   * another e-mail is refused); no token goes back to an older one (a rewrap loses or reverts none);
   * every stored token opens under the keyring in force; no token is in the store or a log in plain
   * text.
   */
  async broken(): Promise<string[]> {
    const problems = [...this.problems];
    for (const { login, email } of this.#links) {
      if (!(this.#approvedAt.get(email) ?? []).some((at) => at >= login.before))
        problems.push(`a login linked ${email}, who did not approve during it`);
    }
    for (const [email, links] of this.connected) {
      if (links > (this.authorizations.get(email) ?? 0))
        problems.push(
          `${email} authorized ${this.authorizations.get(email) ?? 0} times and is linked to ${links} logins`,
        );
    }
    const rows = await this.store.scan('', undefined, 10_000);
    const stored = JSON.stringify(rows);
    const logged = this.logs.join('\n');
    for (const token of this.tokens) {
      if (stored.includes(token)) problems.push('a token is stored in plain text');
      if (logged.includes(token)) problems.push('a token is logged');
    }
    for (const { email, token } of await this.#storedTokens()) {
      const owner = this.#issuedTo.get(token);
      if (owner !== undefined && owner !== email) problems.push(`${email} holds a token issued to ${owner}`);
    }
    const reader = this.#instance(0).vault;
    for (const email of USERS) {
      const row = rows.find((entry) => entry.key === `user:${email}`);
      if (row === undefined) {
        this.#lastCurrent.delete(email);
        continue;
      }
      let token: string | undefined;
      try {
        token = await reader.tokenFor(email);
      } catch (error) {
        problems.push(`the token of ${email} no longer opens: ${(error as Error).message}`);
        continue;
      }
      const record = JSON.parse(row.value) as { current?: string };
      if (record.current === undefined || token === undefined) continue;
      if (token.startsWith('tok_forged')) problems.push(`a forged token became ${email}'s current token`);
      const order = this.#order.get(token) ?? 0;
      if (order < (this.#lastCurrent.get(email) ?? 0))
        problems.push(`${email}'s current token went back to an older one`);
      this.#lastCurrent.set(email, order);
    }
    return problems;
  }

  /** At the end: every refused token was told exactly once (hooks run after the caller's error). */
  async told(): Promise<string[]> {
    for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setTimeout(resolve, 1));
    return this.notices === this.#claimedNotices.size
      ? []
      : [`${this.#claimedNotices.size} refused tokens, ${this.notices} notices`];
  }

  async close(): Promise<void> {
    await Promise.all([
      ...this.instances.map((instance) => instance.wallet.close()),
      ...this.#retired.map((wallet) => wallet.close()),
    ]);
  }
}
