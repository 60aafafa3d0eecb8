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
 * tokens, login states and authorization notes (an e-mail and a time), never a plaintext token.
 * Adapters: {@link createMemoryTokenStore}, `merchant-wallet/postgres`, `merchant-wallet/redis`;
 * `merchant-wallet/conformance` checks one written for another store.
 */
export interface TokenStore {
  /** The value of `key`; `undefined` when there is none or it expired. */
  get(key: string): Promise<string | undefined>;
  /**
   * Sets `key` to `value` (or deletes it when `value` is `undefined`) only while its stored value
   * is `expected` (`undefined`: no value, or an expired one), in one atomic step; answers whether it
   * wrote. `ttlMs` makes the new value expire.
   */
  compareAndSet(
    key: string,
    expected: string | undefined,
    value: string | undefined,
    ttlMs?: number,
  ): Promise<boolean>;
  /** At most `limit` live entries whose key starts with `prefix` and sorts after `after`, in key order (by UTF-16 code unit). */
  scan(prefix: string, after: string | undefined, limit: number): Promise<TokenStoreEntry[]>;
}
