import { toBase64Url } from './base64.js';
import type { LoadedKeyring } from './keyring.js';
import type { TokenStore } from './token-store.js';

/**
 * Binds each token to the first e-mail it was delivered for. `user_authorized` webhooks are not
 * signed, and a token check proves only that a token works for this application, not whose it is:
 * without the binding, whoever holds another user's token could deliver it under their own e-mail
 * and pay from that user's wallet.
 *
 * An entry is `owner:<key id>:<HMAC-SHA256 of the token, base64url>` → the e-mail, inserted once and
 * never given to another e-mail. The HMAC is keyed per key id, so the store never holds anything a
 * token could be guessed back from without the keyring. A delivery's entry expires after
 * {@link UNPROVEN_OWNER_TTL_MS}, as its authorization note does: webhooks are unsigned, so forged
 * deliveries must not fill the store for good. The first call the token works for makes it
 * permanent ({@link TokenOwners.keep}), as does a rewrap that re-seals a token a row holds.
 */
export interface TokenOwners {
  /**
   * Binds `token` to `email` unless any key of the keyring finds it bound to another e-mail:
   * answers whether it is now `email`'s. Of deliveries racing for one token, one e-mail wins.
   */
  claim(email: string, token: string): Promise<boolean>;
  /**
   * Binds `token` to `email` under the primary key unless an entry is there already, so a binding
   * made under an older key outlives that key's retirement once the token is re-sealed.
   */
  carry(email: string, token: string): Promise<void>;
  /**
   * Makes the binding of `token` to `email` permanent: the service took the token, so it is a real
   * authorization's. A binding to another e-mail is left as it is.
   */
  keep(email: string, token: string): Promise<void>;
}

/**
 * How long the binding a delivery makes lasts until the token works for a call: the life of its
 * authorization note (login-claim.ts), two days.
 */
export const UNPROVEN_OWNER_TTL_MS = 2 * 24 * 3600_000;

/** The prefix of every owner entry's key. */
const OWNER_PREFIX = 'owner:';

/**
 * What the HMAC key is derived for: the AES key's bytes are never used as a MAC key themselves, so
 * no key serves two algorithms.
 */
const encoder = new TextEncoder();
const OWNER_KEY_INFO = encoder.encode('merchant-wallet owner index');

/** The {@link TokenOwners} of the vault over `store`, keyed by `keyring`. */
export function tokenOwners(store: TokenStore, keyring: LoadedKeyring): TokenOwners {
  const macKeys = new Map<string, Promise<CryptoKey>>();
  const macKey = (id: string) => {
    let key = macKeys.get(id);
    if (key === undefined) {
      const bytes = keyring.bytes(id) as Uint8Array<ArrayBuffer>;
      key = crypto.subtle
        .importKey('raw', bytes, 'HKDF', false, ['deriveKey'])
        .then((base) =>
          crypto.subtle.deriveKey(
            { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: OWNER_KEY_INFO },
            base,
            { name: 'HMAC', hash: 'SHA-256', length: 256 },
            false,
            ['sign'],
          ),
        );
      macKeys.set(id, key);
    }
    return key;
  };
  const entryKey = async (id: string, token: string) => {
    const mac = await crypto.subtle.sign('HMAC', await macKey(id), encoder.encode(token));
    return `${OWNER_PREFIX}${id}:${toBase64Url(new Uint8Array(mac))}`;
  };
  return {
    async claim(email, token) {
      const keys = await Promise.all(keyring.ids.map((id) => entryKey(id, token)));
      const owners = await Promise.all(keys.map((key) => store.get(key)));
      if (owners.some((owner) => owner !== undefined && owner !== email)) return false;
      const at = keyring.ids.indexOf(keyring.primary);
      if (owners[at] === email) return true;
      const key = keys[at] as string;
      if (await store.compareAndSet(key, undefined, email, UNPROVEN_OWNER_TTL_MS)) return true;
      // Entries are never deleted, so a lost insert means a racing delivery bound it first.
      return (await store.get(key)) === email;
    },
    async carry(email, token) {
      await store.compareAndSet(await entryKey(keyring.primary, token), undefined, email);
    },
    async keep(email, token) {
      const key = await entryKey(keyring.primary, token);
      // Written again without a time to live; inserted when it expired meanwhile (or predates binding).
      if (!(await store.compareAndSet(key, email, email))) await store.compareAndSet(key, undefined, email);
    },
  };
}
