import { WalletConfigError, WalletRequestValidationError } from '../errors.js';
import { toBase64Url } from './base64.js';
import { normalizeEmail } from './email.js';
import { WalletLoginStateError } from './errors.js';
import {
  claimNotes,
  MAX_TTL_MS,
  matchNotes,
  noteAuthorization,
  REMEMBER_MS,
  releaseNotes,
  type Session,
} from './login-claim.js';
import type { LoginUrlBuilder } from './login-settings.js';
import type { TokenStore } from './token-store.js';
import type { TokenCheckClient } from './vault-link.js';

/** Options of `vault.startLogin`. */
export interface StartLoginOptions {
  /** Your own id of the account the user is connecting (never sent to the service). */
  account: string;
  /** Where the user lands after logging in; `state` is added to it. Default: the vault's `login.redirectUrl`. */
  redirectUrl?: string | URL | undefined;
  /** The wallet e-mail you expect, when the user told you: the login then matches only that e-mail. */
  expectedEmail?: string | undefined;
  /**
   * How long the login may take, in milliseconds: its `state` expires after, and only
   * authorizations within it can match.
   * @default 900000 (15 minutes)
   */
  ttlMs?: number | undefined;
}

/** A started login: send the user to `url`. */
export interface StartedLogin {
  /** The service's login page, with your redirect URL carrying `state`. */
  readonly url: string;
  /** The one-time state in the redirect URL; `completeLogin` takes it back. */
  readonly state: string;
  /** When the state expires (ISO 8601). */
  readonly expiresAt: string;
}

/** Options of `vault.reconnect`. */
export interface ReconnectOptions {
  /**
   * Your own id of the account, as `completeLogin` answers it.
   * @default the user's e-mail
   */
  account?: string | undefined;
  /** Where the user lands after logging in; `state` is added to it. Default: the vault's `login.redirectUrl`. */
  redirectUrl?: string | URL | undefined;
  /**
   * How long the login may take, in milliseconds.
   * @default 900000 (15 minutes)
   */
  ttlMs?: number | undefined;
}

/** Options of `vault.completeLogin`. */
export interface CompleteLoginOptions {
  /**
   * The client to check the matched authorization's token with (one `listProviders` call). The
   * login connects only when the service takes that token, which then becomes the user's current
   * token, so the next payment uses it; a forged `user_authorized` webhook never connects a login.
   */
  client: TokenCheckClient;
  /**
   * The wallet e-mail the user typed in after an `ambiguous` answer. A login started with an
   * `expectedEmail` (or by `reconnect`) matches only that e-mail: another one is refused.
   */
  email?: string | undefined;
  /**
   * How long to wait for the `user_authorized` webhook when it has not arrived yet, in milliseconds:
   * a whole number from 0 to 300000 (5 minutes).
   * @default 0
   */
  waitMs?: number | undefined;
}

/**
 * How a login ended. The service's `user_authorized` webhook carries no state, so a login is matched
 * to an authorization by the expected e-mail, or by being the only unclaimed one in the login's window:
 * - `connected`: matched, and the authorization's token works: it is the user's current token;
 * - `pending`: no authorization yet; the state stays usable, so call again (or pass `waitMs`);
 * - `ambiguous`: several users authorized in the window; the vault never guesses between them:
 *   ask the user for their wallet e-mail and call again with `{ email }`.
 */
export type LoginCompletion =
  | {
      /** Matched: the user's token is in the vault. */
      readonly status: 'connected';
      /** Your account id, from `startLogin`. */
      readonly account: string;
      /** The wallet e-mail that authorized during the login. */
      readonly email: string;
    }
  | {
      /** No authorization yet: call again, or pass `waitMs`. */
      readonly status: 'pending';
      /** Your account id, from `startLogin`. */
      readonly account: string;
    }
  | {
      /** Several users authorized in the window: ask the user for their wallet e-mail. */
      readonly status: 'ambiguous';
      /** Your account id, from `startLogin`. */
      readonly account: string;
      /** How many different users authorized in the window. */
      readonly authorizations: number;
      /** What to ask the user, and how to call again. */
      readonly ask: string;
    };

/** Login correlation: `startLogin` and `completeLogin`. */
export interface LoginSessions {
  /**
   * Starts a login for `account`: a one-time, expiring `state` kept in the store and added to the
   * redirect URL.
   * @throws {WalletConfigError} when the vault has no `login` settings.
   */
  startLogin(options: StartLoginOptions): Promise<StartedLogin>;
  /**
   * Starts a login bound to a user who must authorize again: only that e-mail's authorization
   * matches it, and `account` defaults to the e-mail. What `WalletReauthorizationRequiredError.loginUrl`
   * and the `onReauthorizationRequired` notice carry.
   * @throws {WalletConfigError} when the vault has no `login` settings.
   * @throws {WalletRequestValidationError} for a bad e-mail or option.
   */
  reconnect(email: string, options?: ReconnectOptions): Promise<StartedLogin>;
  /**
   * Completes the login whose redirect carried `state`: which wallet e-mail authorized during it.
   * The matched authorization's token is checked with one `listProviders` call of `options.client`;
   * the login connects only when it works (it becomes the user's current token).
   * @throws {WalletLoginStateError} for a state never issued, expired or already used.
   * @throws {WalletRequestValidationError} for a bad `email`, `waitMs` or `client`, or an `email`
   *   other than the `expectedEmail` the login was started with (or the user of `reconnect`).
   */
  completeLogin(state: string, options: CompleteLoginOptions): Promise<LoginCompletion>;
}

const DEFAULT_TTL_MS = 15 * 60_000;
const MAX_WAIT_MS = 300_000;
const POLL_MS = 100;
const ASK =
  'Several users authorized during this login: ask the user for the e-mail of their wallet, then call completeLogin(state, { email })';

const sessionKey = (state: string) => `login:${state}`;
const invalid = (path: string, message: string) => new WalletRequestValidationError([{ path, message }]);

/** What the vault gives its login sessions. */
export interface LoginSessionDeps {
  readonly store: TokenStore;
  /** The login URL for a redirect URL; `undefined` when the vault has no login settings. */
  readonly loginUrlFor: LoginUrlBuilder | undefined;
  /**
   * Checks the token `tokenId` of the user through `client`: `working` (it is now current) or
   * `unusable` (refused, or no longer stored); throws when the check said nothing.
   */
  readonly verify: (
    email: string,
    tokenId: string,
    client: TokenCheckClient,
  ) => Promise<'working' | 'unusable'>;
}

function checkCompleteOptions(options: unknown) {
  if (typeof options !== 'object' || options === null) throw invalid('options', 'must be an object');
  const { email, waitMs = 0, client } = options as CompleteLoginOptions;
  if (typeof waitMs !== 'number' || !Number.isSafeInteger(waitMs) || waitMs < 0 || waitMs > MAX_WAIT_MS) {
    throw invalid('waitMs', `must be a whole number of milliseconds from 0 to ${MAX_WAIT_MS}`);
  }
  if (typeof (client as Partial<TokenCheckClient> | undefined)?.listProviders !== 'function') {
    throw invalid('client', 'must be the WalletClient to check the new token with');
  }
  return { email: email === undefined ? undefined : normalizeEmail(email, 'email'), waitMs, client };
}

/**
 * Refuses an `email` other than the one the login was started for (`expectedEmail`, or the user of
 * `reconnect`): such a login links only that user. The message does not repeat the expected e-mail.
 */
function checkSameUser(session: Session, email: string | undefined): void {
  if (email === undefined || session.expectedEmail === undefined || email === session.expectedEmail) return;
  throw invalid(
    'email',
    'differs from the e-mail this login was started for: it can link only that user; start a new login for another one',
  );
}

/** The login sessions of a vault, and `noteAuthorization`, which `vault.receive` calls. */
export function loginSessions(deps: LoginSessionDeps): LoginSessions & {
  noteAuthorization(email: string, tokenId: string): Promise<void>;
} {
  const { store } = deps;

  const sessions: LoginSessions & { noteAuthorization(email: string, tokenId: string): Promise<void> } = {
    noteAuthorization: (email, tokenId) => noteAuthorization(store, email, tokenId),
    async startLogin(options) {
      if (deps.loginUrlFor === undefined) {
        throw new WalletConfigError(
          'login',
          'startLogin needs the vault option login: { authUrl, redirectUrl }',
        );
      }
      const { account, expectedEmail, ttlMs = DEFAULT_TTL_MS } = options ?? ({} as StartLoginOptions);
      if (typeof account !== 'string' || account === '' || account.length > 200) {
        throw invalid('account', 'must be your account id, 1 to 200 characters');
      }
      if (typeof ttlMs !== 'number' || !Number.isSafeInteger(ttlMs) || ttlMs <= 0 || ttlMs > MAX_TTL_MS) {
        throw invalid('ttlMs', 'must be a whole number of milliseconds up to one day');
      }
      const expected =
        expectedEmail === undefined ? undefined : normalizeEmail(expectedEmail, 'expectedEmail');
      const state = toBase64Url(crypto.getRandomValues(new Uint8Array(16)));
      const base = deps.loginUrlFor(options.redirectUrl);
      const login = new URL(base);
      const redirect = new URL(login.searchParams.get('redirect_url') ?? '');
      redirect.searchParams.set('state', state);
      login.searchParams.set('redirect_url', redirect.href);
      const startedAt = Date.now();
      const session: Session = { account, expectedEmail: expected, startedAt, expiresAt: startedAt + ttlMs };
      await store.compareAndSet(sessionKey(state), undefined, JSON.stringify(session), ttlMs + REMEMBER_MS);
      return { url: login.href, state, expiresAt: new Date(session.expiresAt).toISOString() };
    },
    async reconnect(rawEmail, options) {
      const email = normalizeEmail(rawEmail, 'email');
      const { account = email, redirectUrl, ttlMs } = options ?? {};
      return sessions.startLogin({ account, redirectUrl, ttlMs, expectedEmail: email });
    },
    async completeLogin(state, options) {
      if (typeof state !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(state))
        throw new WalletLoginStateError('unknown');
      const { email, waitMs, client } = checkCompleteOptions(options);
      const deadline = Date.now() + waitMs;
      for (;;) {
        const stored = await store.get(sessionKey(state));
        if (stored === undefined) throw new WalletLoginStateError('unknown');
        const session = JSON.parse(stored) as Session;
        if (session.used) throw new WalletLoginStateError('used');
        if (session.expiresAt <= Date.now()) throw new WalletLoginStateError('expired');
        checkSameUser(session, email);
        const found = await matchNotes(store, session, email);
        const { account } = session;
        if (found.ambiguous > 0)
          return { status: 'ambiguous', account, authorizations: found.ambiguous, ask: ASK };
        const chosen = found.notes.at(-1);
        if (chosen === undefined) {
          if (Date.now() >= deadline) return { status: 'pending', account };
          await new Promise((resolve) => setTimeout(resolve, POLL_MS));
          continue;
        }
        // Another login claimed one of them first: look again, without what it took.
        const claimed = await claimNotes(store, found.notes, state);
        if (claimed === undefined) continue;
        const others = claimed.filter((taken) => taken.note !== chosen);
        let verdict: 'working' | 'unusable';
        try {
          verdict =
            chosen.token === undefined ? 'unusable' : await deps.verify(chosen.email, chosen.token, client);
        } catch (error) {
          await releaseNotes(store, claimed);
          throw error;
        }
        if (verdict === 'unusable') {
          // A forged or superseded authorization: it stays claimed, so it never matches a login.
          await releaseNotes(store, others);
          continue;
        }
        const used = JSON.stringify({ ...session, used: true });
        if (!(await store.compareAndSet(sessionKey(state), stored, used, REMEMBER_MS))) {
          await releaseNotes(store, claimed);
          throw new WalletLoginStateError('used');
        }
        return { status: 'connected', account, email: chosen.email };
      }
    },
  };
  return sessions;
}
