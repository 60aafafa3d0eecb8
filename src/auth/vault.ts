import { WalletConfigError, WalletRequestValidationError } from '../errors.js';
import { CREDENTIAL } from '../limits.js';
import type { WalletLogger } from '../logger.js';
import { buildLoginUrl } from '../login.js';
import { createMemoryDedupeStore, type WebhookDedupeStore } from '../webhooks/dedupe.js';
import type { UserAuthorizedEvent } from '../webhooks/parse.js';
import { normalizeEmail } from './email.js';
import { WalletReauthorizationRequiredError } from './errors.js';
import { type LoadedKeyring, loadKeyring, type TokenKeyring } from './keyring.js';
import { type LoginSessions, loginSessions } from './login-sessions.js';
import { isTokenRefusal, type ReauthorizationNotice, reauthorizationNotifier } from './reauthorization.js';
import { type RewrapOptions, type RewrapReport, rewrapRecords } from './rewrap.js';
import { tokenCipher } from './token-cipher.js';
import type { TokenStore } from './token-store.js';
import { editRecord, parseRecord, type UserRecord, userKey } from './user-record.js';
import { type LinkedVault, VAULT_LINK, type VaultLink } from './vault-link.js';

/** Where the vault's login URLs point: the service's login page and your redirect. */
export interface VaultLoginSettings {
  /** `{auth_url}` of the service. */
  authUrl: string | URL;
  /** Where users land after logging in: your page that calls `completeLogin`. */
  redirectUrl: string | URL;
  /** Hosts a redirect URL may point at (see `buildLoginUrl`). */
  allowedRedirectHosts?: readonly string[] | undefined;
}

/** Options of {@link createTokenVault}. */
export interface TokenVaultOptions {
  /** Where sealed tokens, login states and authorization notes are kept. */
  store: TokenStore;
  /** The keyring: `{ primary: 'k2', keys: { k2: '<32 bytes, base64>', k1: '…' } }`. */
  keys: TokenKeyring;
  /** Your application id: bound into every ciphertext and used in login URLs. */
  appId: string;
  /** Lets the vault build login URLs: `startLogin`, and `loginUrl` on re-authorization errors. */
  login?: VaultLoginSettings | undefined;
  /**
   * Called once per refused token, across every instance sharing `dedupe`, when a user's token is
   * refused and forgotten: e-mail the user a reconnect link, flag the account. Errors it throws
   * are logged, never thrown into the payment call.
   */
  onReauthorizationRequired?: ((notice: ReauthorizationNotice) => void | Promise<void>) | undefined;
  /**
   * Where `onReauthorizationRequired` notices are de-duplicated: share one (Redis, PostgreSQL)
   * between instances so the hook fires once in the fleet. Default: this process's memory.
   */
  dedupe?: WebhookDedupeStore | undefined;
  /** Where hook failures are reported. No token is ever logged. */
  logger?: WalletLogger | undefined;
}

/**
 * The merchant's store of user tokens, encrypted at rest with AES-256-GCM (WebCrypto). Wire it
 * into the webhook handler (`onUserAuthorized: (event) => vault.receive(event)`) and the client
 * (`new WalletClient({ tokens: vault })`), then pay by e-mail: `deposit(body, { user: email })`.
 */
export interface TokenVault extends LinkedVault, LoginSessions {
  /**
   * Takes a `user_authorized` webhook: the token becomes the user's candidate, while the current
   * token stays in use until the candidate has worked once (a call with it, or {@link confirm}).
   * @throws {WalletRequestValidationError} for an event without a usable e-mail or token.
   */
  receive(event: Pick<UserAuthorizedEvent, 'user_email' | 'token'>): Promise<void>;
  /**
   * Checks the user's candidate token with one `listProviders` call, through the client made with
   * `tokens: vault`: promotes it when it works, drops it when the service refuses it. Answers
   * whether a candidate was promoted.
   * @throws {WalletConfigError} when no client uses this vault.
   */
  confirm(email: string): Promise<boolean>;
  /** The user's token: the current one, or the candidate while there is none; `undefined` for none. */
  tokenFor(email: string): Promise<string | undefined>;
  /**
   * Forgets the user's tokens, or only `token` when given (compare-and-delete: a newer token stored
   * meanwhile stays). Answers whether anything was forgotten.
   */
  forget(email: string, token?: string): Promise<boolean>;
  /** Re-encrypts every token not under the primary key, in batches; run it again to resume. */
  rewrap(options?: RewrapOptions): Promise<RewrapReport>;
}

function checkStore(store: unknown): TokenStore {
  const candidate = store as Partial<TokenStore> | undefined;
  if (
    typeof candidate?.get !== 'function' ||
    typeof candidate.compareAndSet !== 'function' ||
    typeof candidate.scan !== 'function'
  ) {
    throw new WalletConfigError('store', 'must be a token store (get, compareAndSet, scan)');
  }
  return candidate as TokenStore;
}

function checkToken(token: unknown, field: string): string {
  if (typeof token !== 'string' || !CREDENTIAL.test(token)) {
    throw new WalletRequestValidationError([
      { path: field, message: 'must be a token of visible ASCII characters with no spaces' },
    ]);
  }
  return token;
}

/**
 * Creates a {@link TokenVault}.
 *
 * @throws {WalletConfigError} for a bad store, app id or login settings, a key that is not
 *   32 bytes, or a primary key id missing from the keyring.
 * @example
 * const vault = createTokenVault({
 *   store: createMemoryTokenStore(),
 *   keys: { primary: 'k1', keys: { k1: process.env.TOKEN_KEY_K1 } },
 *   appId: 'shop-app',
 * });
 */
export function createTokenVault(options: TokenVaultOptions): TokenVault {
  if (typeof options !== 'object' || options === null) {
    throw new WalletConfigError('createTokenVault', 'options must be an object');
  }
  const store = checkStore(options.store);
  const { appId, login, logger } = options;
  if (typeof appId !== 'string' || appId.trim() === '')
    throw new WalletConfigError('appId', 'must be a non-empty string');
  const keyring: LoadedKeyring = loadKeyring(options.keys);
  const cipher = tokenCipher(keyring, appId);
  const loginUrlFor =
    login &&
    ((redirectUrl: string | URL = login.redirectUrl) =>
      buildLoginUrl({
        authUrl: login.authUrl,
        appId,
        redirectUrl,
        ...(login.allowedRedirectHosts && { allowedRedirectHosts: login.allowedRedirectHosts }),
      }));
  const loginUrl = loginUrlFor?.();
  const notify = reauthorizationNotifier(
    options.dedupe ?? createMemoryDedupeStore({ ttlMs: 7 * 24 * 3600_000 }),
    options.onReauthorizationRequired,
    (notice, error) =>
      logger?.warn?.('onReauthorizationRequired failed', {
        userEmail: notice.userEmail,
        error: error instanceof Error ? error.name : typeof error,
      }),
  );
  let listProviders: ((token: string) => PromiseLike<unknown>) | undefined;

  /** The token a call uses, with the slot and ciphertext it came from. */
  async function usable(email: string) {
    const record = parseRecord(await store.get(userKey(email)));
    const sealed = record.current ?? record.candidate;
    if (sealed === undefined) return undefined;
    const slot = record.current === undefined ? ('candidate' as const) : ('current' as const);
    return { sealed, slot, token: await cipher.open(email, sealed) };
  }

  /** Drops `sealed` from the user's row if it is still there; answers whether it was. */
  async function drop(email: string, sealed: string): Promise<boolean> {
    let dropped = false;
    await editRecord(store, email, (record) => {
      dropped = record.current === sealed || record.candidate === sealed;
      if (!dropped) return undefined;
      return {
        current: record.current === sealed ? undefined : record.current,
        candidate: record.candidate === sealed ? undefined : record.candidate,
      };
    });
    return dropped;
  }

  async function promote(email: string, sealed: string): Promise<boolean> {
    const written = await editRecord(store, email, (record) =>
      record.candidate === sealed ? { current: sealed, candidate: undefined } : undefined,
    );
    return written.current === sealed;
  }

  async function refused(email: string, sealed: string, refusal: unknown) {
    await drop(email, sealed);
    const error = new WalletReauthorizationRequiredError({
      userEmail: email,
      loginUrl,
      refusal: refusal as WalletReauthorizationRequiredError,
    });
    await notify({ userEmail: email, loginUrl, code: error.code }, sealed);
    return error;
  }

  const link: VaultLink = {
    async withToken(email, call) {
      const found = await usable(email);
      if (found === undefined) {
        throw new WalletReauthorizationRequiredError({ userEmail: email, loginUrl, refusal: undefined });
      }
      let result: Awaited<ReturnType<typeof call>>;
      try {
        result = await call(found.token);
      } catch (error) {
        throw isTokenRefusal(error) ? await refused(email, found.sealed, error) : error;
      }
      if (found.slot === 'candidate') await promote(email, found.sealed);
      return result;
    },
    tokenFor: (email) => vault.tokenFor(email),
    bind(check) {
      listProviders = check;
    },
  };

  const sessions = loginSessions({
    store,
    loginUrlFor,
    confirm: (email) => vault.confirm(email),
  });
  const vault: TokenVault = {
    [VAULT_LINK]: link,
    startLogin: sessions.startLogin,
    completeLogin: sessions.completeLogin,
    async receive(event) {
      const email = normalizeEmail(event?.user_email, 'event.user_email');
      const sealed = await cipher.seal(email, checkToken(event.token, 'event.token'));
      await editRecord(
        store,
        email,
        (record): UserRecord => ({ current: record.current, candidate: sealed }),
      );
      await sessions.noteAuthorization(email);
    },
    async confirm(rawEmail) {
      const email = normalizeEmail(rawEmail, 'email');
      if (listProviders === undefined) {
        throw new WalletConfigError('tokens', 'confirm needs a WalletClient created with { tokens: vault }');
      }
      const { candidate } = parseRecord(await store.get(userKey(email)));
      if (candidate === undefined) return false;
      try {
        await listProviders(await cipher.open(email, candidate));
      } catch (error) {
        if (!isTokenRefusal(error)) throw error;
        await drop(email, candidate);
        return false;
      }
      return promote(email, candidate);
    },
    async tokenFor(rawEmail) {
      return (await usable(normalizeEmail(rawEmail, 'email')))?.token;
    },
    async forget(rawEmail, token) {
      const email = normalizeEmail(rawEmail, 'email');
      if (token === undefined) {
        let had = false;
        await editRecord(store, email, (record) => {
          had = record.current !== undefined || record.candidate !== undefined;
          return had ? {} : undefined;
        });
        return had;
      }
      const record = parseRecord(await store.get(userKey(email)));
      for (const sealed of [record.current, record.candidate]) {
        if (sealed !== undefined && (await cipher.open(email, sealed).catch(() => undefined)) === token) {
          return drop(email, sealed);
        }
      }
      return false;
    },
    rewrap: (rewrapOptions) => rewrapRecords(store, cipher, keyring.primary, rewrapOptions),
  };
  return vault;
}
