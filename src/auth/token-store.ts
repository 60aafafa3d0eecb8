import { WalletRequestValidationError } from '../errors.js';

/** One stored value and its key, as {@link TokenStore.scan} lists them. */
export interface TokenStoreEntry {
  /** The key, e.g. `user:alice@example.com`. */
  readonly key: string;
  /** The stored value. */
  readonly value: string;
}

/**
 * Where the token vault keeps its rows: a key-value store with one atomic compare-and-set, so that
 * instances sharing it never overwrite each other's changes. It only ever holds ciphertexts of
 * tokens, login states, authorization notes (an e-mail and a time) and owner entries (a keyed
 * HMAC of a token and an e-mail), never a plaintext token.
 * Adapters: {@link createMemoryTokenStore}, `merchant-wallet/postgres`, `merchant-wallet/redis`;
 * `merchant-wallet/conformance` checks one written for another store.
 */
export interface TokenStore {
  /** The value of `key`; `undefined` when there is none or it expired. */
  get(key: string): Promise<string | undefined>;
  /**
   * Sets `key` to `value` (or deletes it when `value` is `undefined`) only while its stored value
   * is `expected` (`undefined`: no value, or an expired one), in one atomic step; answers whether it
   * wrote. `ttlMs` makes the new value expire. A key over `MAX_TOKEN_STORE_KEY_LENGTH` or a value
   * over `MAX_TOKEN_STORE_VALUE_LENGTH` characters is refused before anything is written
   * ({@link checkTokenStoreWrite}).
   */
  compareAndSet(
    key: string,
    expected: string | undefined,
    value: string | undefined,
    ttlMs?: number,
  ): Promise<boolean>;
  /** At most `limit` live entries whose key starts with `prefix` and sorts after `after`, in key order (by UTF-16 code unit). */
  scan(prefix: string, after: string | undefined, limit: number): Promise<TokenStoreEntry[]>;
  /**
   * Deletes what expired (login states, authorization notes, and any index entry left behind) and
   * answers how many; run it from a periodic job. Stores whose server expires rows by itself may
   * leave it out.
   */
  purgeExpired?(): Promise<number>;
}

/** The longest key a token store takes, in characters; the vault's are far shorter. */
export const MAX_TOKEN_STORE_KEY_LENGTH = 512;

/**
 * The longest value a token store takes, in characters: a user's row with two sealed tokens of
 * `MAX_USER_TOKEN_LENGTH` (4,096) characters each fits with room to spare.
 */
export const MAX_TOKEN_STORE_VALUE_LENGTH = 16_384;

/**
 * Checks a write against the store's bounds, before it reaches the server.
 * @throws {WalletRequestValidationError} naming `key` or `value` when one is too long.
 */
export function checkTokenStoreWrite(key: string, value: string | undefined): void {
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_TOKEN_STORE_KEY_LENGTH) {
    throw new WalletRequestValidationError([
      { path: 'key', message: `must be 1 to ${MAX_TOKEN_STORE_KEY_LENGTH} characters` },
    ]);
  }
  if (value !== undefined && (typeof value !== 'string' || value.length > MAX_TOKEN_STORE_VALUE_LENGTH)) {
    throw new WalletRequestValidationError([
      { path: 'value', message: `must be a string of at most ${MAX_TOKEN_STORE_VALUE_LENGTH} characters` },
    ]);
  }
}
