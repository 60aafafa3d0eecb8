import { WalletConfigError } from '../errors.js';
import { fromBase64 } from './base64.js';

/**
 * The keys the token vault encrypts with: `primary` names the key every new ciphertext uses; the
 * others still decrypt what they encrypted until `vault.rewrap()` has moved it to the primary.
 *
 * @example
 * // Generate a key: node -e "console.log(crypto.randomBytes(32).toString('base64'))"
 * const keys = { primary: 'k2', keys: { k2: process.env.TOKEN_KEY_K2, k1: process.env.TOKEN_KEY_K1 } };
 */
export interface TokenKeyring {
  /** The id of the key new ciphertexts are made with; it must be one of `keys`. */
  primary: string;
  /** Each key by its id (letters, digits, `_` and `-`, at most 64): 32 random bytes, in base64 or base64url. */
  keys: Readonly<Record<string, string | undefined>>;
}

/** A checked keyring: its primary id and each imported key. */
export interface LoadedKeyring {
  readonly primary: string;
  /** Every key id of the keyring, the primary among them. */
  readonly ids: readonly string[];
  /** The key of `id`; a {@link WalletConfigError} when the keyring has no such key. */
  key(id: string): Promise<CryptoKey>;
  /** The key of `id` once imported, without waiting; `undefined` before. */
  ready(id: string): CryptoKey | undefined;
  /**
   * The 32 bytes of the key `id`, for the runtime's own AES-GCM and for deriving the owner index's
   * key; `undefined` for no such key. Never shown.
   */
  bytes(id: string): Uint8Array<ArrayBuffer> | undefined;
}

const KEY_ID = /^[A-Za-z0-9_-]{1,64}$/;
const KEY_BYTES = 32;

/**
 * Checks `keyring` and prepares its keys for AES-256-GCM (imported once each, on first use, as
 * non-extractable WebCrypto keys; their bytes stay here for `node:crypto`, which opens tokens where
 * the runtime has it).
 * @throws {WalletConfigError} for a missing primary, a bad key id, or a key that is not 32 bytes.
 */
export function loadKeyring(keyring: TokenKeyring): LoadedKeyring {
  if (typeof keyring !== 'object' || keyring === null) {
    throw new WalletConfigError('keys', 'must be an object { primary, keys }');
  }
  const { primary, keys } = keyring;
  if (typeof keys !== 'object' || keys === null || Object.keys(keys).length === 0) {
    throw new WalletConfigError('keys.keys', 'must map at least one key id to a 32-byte key in base64');
  }
  const raw = new Map<string, Uint8Array<ArrayBuffer>>();
  for (const [id, value] of Object.entries(keys)) {
    if (!KEY_ID.test(id)) {
      throw new WalletConfigError(
        `keys.keys.${id}`,
        'is not a key id: use letters, digits, _ and -, at most 64',
      );
    }
    const bytes = typeof value === 'string' ? fromBase64(value.trim()) : undefined;
    if (bytes === undefined)
      throw new WalletConfigError(`keys.keys.${id}`, 'must be a key in base64 or base64url');
    if (bytes.length !== KEY_BYTES) {
      throw new WalletConfigError(
        `keys.keys.${id}`,
        `must be ${KEY_BYTES} bytes for AES-256 (it is ${bytes.length})`,
      );
    }
    raw.set(id, bytes);
  }
  if (typeof primary !== 'string' || !raw.has(primary)) {
    throw new WalletConfigError('keys.primary', 'must name one of keys.keys');
  }
  const imported = new Map<string, Promise<CryptoKey>>();
  const ready = new Map<string, CryptoKey>();
  return {
    primary,
    ids: [...raw.keys()],
    ready: (id) => ready.get(id),
    bytes: (id) => raw.get(id),
    key(id) {
      let key = imported.get(id);
      if (key === undefined) {
        const bytes = raw.get(id);
        if (bytes === undefined) {
          return Promise.reject(
            new WalletConfigError(
              'keys.keys',
              `has no key "${id}", which encrypted a stored token: add it back until vault.rewrap() has run`,
            ),
          );
        }
        key = crypto.subtle.importKey('raw', bytes, 'AES-GCM', false, ['encrypt', 'decrypt']);
        key.then((done) => ready.set(id, done)).catch(() => {});
        imported.set(id, key);
      }
      return key;
    },
  };
}
