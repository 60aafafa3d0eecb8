import { WalletConfigError, WalletRequestValidationError } from '../errors.js';
import { toBase64Url } from './base64.js';
import { normalizeEmail } from './email.js';
import { WalletLoginStateError } from './errors.js';
import type { TokenStore } from './token-store.js';

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

/** Options of `vault.completeLogin`. */
export interface CompleteLoginOptions {
  /** The wallet e-mail the user typed in after an `ambiguous` answer. */
  email?: string | undefined;
  /**
   * How long to wait for the `user_authorized` webhook when it has not arrived yet, in milliseconds.
   * @default 0
   */
  waitMs?: number | undefined;
}

/**
 * How a login ended. The service's `user_authorized` webhook carries no state, so a login is matched
 * to an authorization by the expected e-mail, or by being the only unclaimed one in the login's window:
 * - `connected`: matched; the user's token is in the vault (and `confirmed` when it was checked);
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
      /** Whether the new token was checked with one `listProviders` call and promoted. */
      readonly confirmed: boolean;
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
   * Completes the login whose redirect carried `state`: which wallet e-mail authorized during it.
   * @throws {WalletLoginStateError} for a state never issued, expired or already used.
   */
  completeLogin(state: string, options?: CompleteLoginOptions): Promise<LoginCompletion>;
}

interface Session {
  readonly account: string;
  readonly expectedEmail?: string | undefined;
  readonly startedAt: number;
  readonly expiresAt: number;
  readonly used?: true;
}

interface Authorization {
  readonly email: string;
  readonly claimedBy?: string;
}

const DEFAULT_TTL_MS = 15 * 60_000;
const MAX_TTL_MS = 24 * 3600_000;
/** How long a used or expired state is remembered, so a replay is told apart from a typo. */
const REMEMBER_MS = 24 * 3600_000;
const POLL_MS = 100;
const ASK =
  'Several users authorized during this login: ask the user for the e-mail of their wallet, then call completeLogin(state, { email })';

const sessionKey = (state: string) => `login:${state}`;
const noteKey = (at: number) => `authorized:${String(at).padStart(15, '0')}`;

/** What the vault gives its login sessions. */
export interface LoginSessionDeps {
  readonly store: TokenStore;
  /** The login URL for a redirect URL; `undefined` when the vault has no login settings. */
  readonly loginUrlFor: ((redirectUrl: string | URL | undefined) => string) | undefined;
  /** Checks and promotes the user's candidate token; false when it could not. */
  readonly confirm: (email: string) => Promise<boolean>;
}

/** The login sessions of a vault, and `noteAuthorization`, which `vault.receive` calls. */
export function loginSessions(deps: LoginSessionDeps): LoginSessions & {
  noteAuthorization(email: string): Promise<void>;
} {
  const { store } = deps;

  async function unclaimed(session: Session): Promise<Array<{ key: string; value: string; email: string }>> {
    const found = [];
    let after: string | undefined = noteKey(session.startedAt);
    for (;;) {
      const page = await store.scan('authorized:', after, 100);
      for (const entry of page) {
        const note = JSON.parse(entry.value) as Authorization;
        if (note.claimedBy === undefined) found.push({ ...entry, email: note.email });
      }
      if (page.length < 100) return found;
      after = page[page.length - 1]?.key;
    }
  }

  async function match(session: Session, email: string | undefined) {
    const notes = await unclaimed(session);
    const wanted = email ?? session.expectedEmail;
    const emails = new Set(notes.map((note) => note.email));
    if (wanted !== undefined) return { notes: notes.filter((note) => note.email === wanted), ambiguous: 0 };
    if (emails.size > 1) return { notes: [], ambiguous: emails.size };
    return { notes, ambiguous: 0 };
  }

  return {
    async noteAuthorization(email) {
      const key = `${noteKey(Date.now())}:${toBase64Url(crypto.getRandomValues(new Uint8Array(6)))}`;
      await store.compareAndSet(key, undefined, JSON.stringify({ email }), MAX_TTL_MS + REMEMBER_MS);
    },
    async startLogin(options) {
      if (deps.loginUrlFor === undefined) {
        throw new WalletConfigError(
          'login',
          'startLogin needs the vault option login: { authUrl, redirectUrl }',
        );
      }
      const { account, expectedEmail, ttlMs = DEFAULT_TTL_MS } = options ?? ({} as StartLoginOptions);
      if (typeof account !== 'string' || account === '' || account.length > 200) {
        throw new WalletRequestValidationError([
          { path: 'account', message: 'must be your account id, 1 to 200 characters' },
        ]);
      }
      if (typeof ttlMs !== 'number' || !Number.isSafeInteger(ttlMs) || ttlMs <= 0 || ttlMs > MAX_TTL_MS) {
        throw new WalletRequestValidationError([
          { path: 'ttlMs', message: 'must be a whole number of milliseconds up to one day' },
        ]);
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
    async completeLogin(state, options = {}) {
      if (typeof state !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(state))
        throw new WalletLoginStateError('unknown');
      const email = options.email === undefined ? undefined : normalizeEmail(options.email, 'email');
      const deadline = Date.now() + (options.waitMs ?? 0);
      for (;;) {
        const stored = await store.get(sessionKey(state));
        if (stored === undefined) throw new WalletLoginStateError('unknown');
        const session = JSON.parse(stored) as Session;
        if (session.used) throw new WalletLoginStateError('used');
        if (session.expiresAt <= Date.now()) throw new WalletLoginStateError('expired');
        const found = await match(session, email);
        const { account } = session;
        if (found.ambiguous > 0)
          return { status: 'ambiguous', account, authorizations: found.ambiguous, ask: ASK };
        const chosen = found.notes.at(-1);
        if (chosen === undefined) {
          if (Date.now() >= deadline) return { status: 'pending', account };
          await new Promise((resolve) => setTimeout(resolve, POLL_MS));
          continue;
        }
        const used = JSON.stringify({ ...session, used: true });
        if (!(await store.compareAndSet(sessionKey(state), stored, used, REMEMBER_MS))) {
          throw new WalletLoginStateError('used');
        }
        for (const note of found.notes) {
          await store.compareAndSet(
            note.key,
            note.value,
            JSON.stringify({ email: note.email, claimedBy: account }),
            REMEMBER_MS,
          );
        }
        const confirmed = await deps.confirm(chosen.email).catch(() => false);
        return { status: 'connected', account, email: chosen.email, confirmed };
      }
    },
  };
}
