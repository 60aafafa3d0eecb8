import { WalletConfigError, WalletRequestValidationError } from '../errors.js';
import { CREDENTIAL, MAX_USER_TOKEN_LENGTH } from '../limits.js';
import type { WalletLogger } from '../logger.js';
import { createMemoryDedupeStore, type WebhookDedupeStore } from '../webhooks/dedupe.js';
import type { UserAuthorizedEvent } from '../webhooks/parse.js';
import { normalizeEmail } from './email.js';
import { WalletReauthorizationRequiredError } from './errors.js';
import { type LoadedKeyring, loadKeyring, type TokenKeyring } from './keyring.js';
import { type LoginSessions, loginSessions } from './login-sessions.js';
import { loginUrlBuilder, type VaultLoginSettings } from './login-settings.js';
import { type ReauthorizationNotice, reauthorizationNotifier } from './reauthorization.js';
import { type RewrapOptions, type RewrapReport, rewrapRecords } from './rewrap.js';
import { tokenCipher } from './token-cipher.js';
import { tokenOwners } from './token-owners.js';
import type { TokenStore } from './token-store.js';
import { editRecord, type UserRecord } from './user-record.js';
import { userTokens } from './user-tokens.js';
import { type LinkedVault, type TokenCheckClient, VAULT_LINK, type VaultLink } from './vault-link.js';

export type { VaultLoginSettings } from './login-settings.js';

/** Options of {@link createTokenVault}. */
export interface TokenVaultOptions {
  /** Where sealed tokens, login states and authorization notes are kept. */
  store: TokenStore;
  /** The keyring: `{ primary: 'k2', keys: { k2: '<32 bytes, base64>', k1: '…' } }`. */
  keys: TokenKeyring;
  /** Your application id: bound into every ciphertext and used in login URLs. */
  appId: string;
  /**
   * Lets the vault build login URLs: `startLogin`, and `loginUrl` on re-authorization errors. Leave
   * it out for a vault without logins; anything but such an object (`null` included) is a
   * `WalletConfigError` naming `login` when the vault is made.
   */
  login?: VaultLoginSettings | undefined;
  /**
   * Called once per refused token, across every instance sharing `dedupe`, when a user's token is
   * refused and forgotten: e-mail the user the notice's `loginUrl`, flag the account. It runs after
   * the caller has its error, and nothing waits for it; errors it throws are logged (without any
   * token), never thrown into the payment call.
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
 * The merchant's store of user tokens, encrypted at rest with AES-256-GCM (WebCrypto; opened with
 * `node:crypto` where the runtime has it). Wire it into the webhook handler
 * (`onUserAuthorized: (event) => vault.receive(event)`) and the client
 * (`new WalletClient({ tokens: vault })`), then pay by e-mail: `deposit(body, { user: email })`.
 * The vault keeps no client: what needs a call takes one (`confirm`, `completeLogin`), and a
 * payment by `{ user }` checks tokens through the client making it.
 */
export interface TokenVault extends LinkedVault, LoginSessions {
  /**
   * Takes a `user_authorized` webhook: the token becomes the user's candidate, checked with one
   * `listProviders` call before the next call for the user (or by {@link TokenVault.confirm}, or
   * `completeLogin` with a client): made current when it works, dropped when refused. A token is
   * bound to the first e-mail it is delivered for: delivered for another, it is ignored (and a
   * warning naming that e-mail logged), as it is another user's.
   * @throws {WalletRequestValidationError} for an event without a usable e-mail (at most 254
   *   characters) or token (visible ASCII, at most `MAX_USER_TOKEN_LENGTH`, 4,096 characters).
   */
  receive(event: Pick<UserAuthorizedEvent, 'user_email' | 'token'>): Promise<void>;
  /**
   * Checks the user's candidate token now, with one `listProviders` call of `options.client`: makes
   * it current when it works, drops it when the service refuses it (or answers 400). Answers
   * whether a candidate was made current.
   * @throws {WalletRequestValidationError} without a client.
   * @throws the check's own error when it failed for another reason (the candidate stays).
   */
  confirm(email: string, options: { client: TokenCheckClient }): Promise<boolean>;
  /** The user's token: the current one, or the candidate while there is none; `undefined` for none. */
  tokenFor(email: string): Promise<string | undefined>;
  /**
   * Forgets the user's tokens, or only `token` when given (compare-and-delete: a newer token stored
   * meanwhile stays). Answers whether anything was forgotten.
   */
  forget(email: string, token?: string): Promise<boolean>;
  /**
   * Re-encrypts every token not under the primary key, in batches; run it again to resume. A token
   * that does not open is left as it is and counted in the report's `unreadable`, its user named in
   * `unreadableUsers`: that user must log in again (`forget(email)` removes the row).
   * @throws {WalletRequestValidationError} for options that are not an object, or a bad option.
   * @throws {WalletConfigError} for a token under a key id the keyring lacks: add the key back.
   */
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
  if (typeof token !== 'string' || token.length > MAX_USER_TOKEN_LENGTH) {
    throw new WalletRequestValidationError([
      { path: field, message: `must be a token of at most ${MAX_USER_TOKEN_LENGTH} characters` },
    ]);
  }
  if (!CREDENTIAL.test(token)) {
    throw new WalletRequestValidationError([
      { path: field, message: 'must be a token of visible ASCII characters with no spaces' },
    ]);
  }
  return token;
}

function checkClient(options: unknown): TokenCheckClient {
  const client = (options as { client?: Partial<TokenCheckClient> } | undefined)?.client;
  if (typeof client?.listProviders !== 'function') {
    throw new WalletRequestValidationError([
      { path: 'client', message: 'must be the WalletClient to check the token with' },
    ]);
  }
  return client as TokenCheckClient;
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
  const owners = tokenOwners(store, keyring);
  const loginUrlFor = loginUrlBuilder(login, appId);
  const failed = (what: string) => (userEmail: string, error: unknown) =>
    logger?.warn?.(what, { userEmail, error: error instanceof Error ? error.name : typeof error });

  /** A login bound to the user, for an error or a notice; none without login settings, or when the store fails. */
  const reconnectUrl = async (email: string) => {
    if (loginUrlFor === undefined) return undefined;
    try {
      return (await sessions.reconnect(email)).url;
    } catch (error) {
      failed('a reconnect login could not be started')(email, error);
      return undefined;
    }
  };
  const notify = reauthorizationNotifier({
    dedupe: options.dedupe ?? createMemoryDedupeStore({ ttlMs: 7 * 24 * 3600_000 }),
    hook: options.onReauthorizationRequired,
    loginUrlFor: reconnectUrl,
    failed: failed('onReauthorizationRequired failed'),
  });
  const tokens = userTokens({
    store,
    cipher,
    // A token that worked is a real authorization's: its binding to the user no longer expires.
    proven: (email, token) =>
      owners
        .keep(email, token)
        .catch((error: unknown) => failed('a token could not be bound to its user for good')(email, error)),
    async required(email, endpoint, refusal, refused) {
      const error = new WalletReauthorizationRequiredError({
        userEmail: email,
        loginUrl: await reconnectUrl(email),
        endpoint,
        refusal,
      });
      if (refused !== undefined) notify(email, error.code, cipher.idOf(refused));
      return error;
    },
  });
  const checkWith = (client: TokenCheckClient) => (token: string) =>
    client.listProviders({ userToken: token });
  const confirm = async (email: string, client: TokenCheckClient) => {
    const { candidate } = await tokens.read(email);
    if (candidate === undefined) return false;
    const checked = await tokens.checkCandidate(email, candidate, checkWith(client));
    if (checked.outcome === 'kept') throw checked.error;
    return checked.outcome === 'promoted';
  };
  /** Whether the token `id` works: current already, or a candidate the check promotes. */
  const verify = async (email: string, id: string, client: TokenCheckClient) => {
    const { current, candidate } = await tokens.read(email);
    if (current !== undefined && cipher.idOf(current) === id) return 'working' as const;
    if (candidate === undefined || cipher.idOf(candidate) !== id) return 'unusable' as const;
    const checked = await tokens.checkCandidate(email, candidate, checkWith(client));
    if (checked.outcome === 'kept') throw checked.error;
    return checked.outcome === 'promoted' ? ('working' as const) : ('unusable' as const);
  };
  const sessions = loginSessions({ store, loginUrlFor, verify });

  const link: VaultLink = {
    withToken: tokens.withToken,
    tokenFor: (email) => vault.tokenFor(email),
  };
  const vault: TokenVault = {
    [VAULT_LINK]: link,
    startLogin: sessions.startLogin,
    reconnect: sessions.reconnect,
    completeLogin: sessions.completeLogin,
    async receive(event) {
      const email = normalizeEmail(event?.user_email, 'event.user_email');
      const token = checkToken(event.token, 'event.token');
      // A delivery of a token the vault holds (the service sending again) is no new authorization.
      const held = await tokens.read(email);
      for (const sealed of [held.current, held.candidate]) {
        if (sealed !== undefined && (await cipher.open(email, sealed).catch(() => undefined)) === token)
          return;
      }
      // A token delivered before for another e-mail is that user's, leaked: storing it would let
      // this e-mail pay from their wallet. Refused quietly, as a forged token is dropped, so the
      // webhook is still answered and the sender learns nothing.
      if (!(await owners.claim(email, token))) {
        logger?.warn?.('a user_authorized token bound to another user was ignored', { userEmail: email });
        return;
      }
      const sealed = await cipher.seal(email, token);
      await editRecord(
        store,
        email,
        (record): UserRecord => ({ current: record.current, candidate: sealed }),
      );
      await sessions.noteAuthorization(email, cipher.idOf(sealed));
    },
    async confirm(rawEmail, confirmOptions) {
      const client = checkClient(confirmOptions);
      return confirm(normalizeEmail(rawEmail, 'email'), client);
    },
    async tokenFor(rawEmail) {
      const email = normalizeEmail(rawEmail, 'email');
      const record = await tokens.read(email);
      const sealed = record.current ?? record.candidate;
      return sealed === undefined ? undefined : cipher.open(email, sealed);
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
      const record = await tokens.read(email);
      for (const sealed of [record.current, record.candidate]) {
        if (sealed !== undefined && (await cipher.open(email, sealed).catch(() => undefined)) === token) {
          return tokens.drop(email, cipher.idOf(sealed));
        }
      }
      return false;
    },
    rewrap: (rewrapOptions) => rewrapRecords(store, cipher, owners, keyring.primary, rewrapOptions),
  };
  return vault;
}
