import { fromBase64, toBase64Url } from './base64.js';
import { WalletTokenDecryptionError } from './errors.js';
import type { LoadedKeyring } from './keyring.js';
import { type AesGcmDecrypt, nodeAesGcmDecrypt } from './node-aes-gcm.js';

/**
 * The ciphertext format of a stored token, version 1: `mwt1.<key id>.<iv>.<ciphertext and tag>`,
 * both base64url. AES-256-GCM with a random 96-bit IV per write and a 128-bit tag; the associated
 * data binds it to the application id and the user's e-mail, so a ciphertext moved to another
 * user's row, or another application's store, fails to decrypt.
 */
const FORMAT = 'mwt1';
const IV_BYTES = 12;

/** How many decoded ciphertexts a cipher keeps. */
const PARSED_CACHE_SIZE = 10_000;

interface SealedParts {
  readonly keyId: string;
  readonly iv: Uint8Array<ArrayBuffer>;
  readonly data: Uint8Array<ArrayBuffer>;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Seals and opens one application's tokens under a keyring. */
export interface TokenCipher {
  /** `token` encrypted under the primary key for `email`. */
  seal(email: string, token: string): Promise<string>;
  /** The token of `sealed`; a {@link WalletTokenDecryptionError} when it cannot be read for `email`. */
  open(email: string, sealed: string): Promise<string>;
  /**
   * `sealed` encrypted again under the primary key with its own IV, so the token keeps its
   * {@link TokenCipher.idOf}: a rotation never makes one token look like another. Reusing the IV
   * is safe: each (key, IV) pair still seals one plaintext only, as the IV was drawn at random.
   */
  reseal(email: string, sealed: string): Promise<string>;
  /** The key id `sealed` names, or `undefined` when it is not in this format. */
  keyIdOf(sealed: string): string | undefined;
  /**
   * What identifies the token `sealed` holds across re-encryption: its IV, drawn at random when
   * the token was received and kept by {@link TokenCipher.reseal}. Compare tokens by it, never by
   * their sealed text, which a rotation changes.
   */
  idOf(sealed: string): string;
}

/**
 * A {@link TokenCipher} for `appId` under `keyring`. It opens tokens with `decrypt` (`node:crypto`'s,
 * where the runtime has it), else with WebCrypto; it seals with WebCrypto, so each reads the other's.
 */
export function tokenCipher(
  keyring: LoadedKeyring,
  appId: string,
  decrypt: AesGcmDecrypt | undefined = nodeAesGcmDecrypt(),
): TokenCipher {
  const associatedDataOf = new Map<string, Uint8Array<ArrayBuffer>>();
  const associatedData = (email: string) => {
    let bytes = associatedDataOf.get(email);
    if (bytes === undefined) {
      if (associatedDataOf.size >= PARSED_CACHE_SIZE) associatedDataOf.clear();
      bytes = encoder.encode(`${FORMAT}\n${appId}\n${email}`);
      associatedDataOf.set(email, bytes);
    }
    return bytes;
  };
  // Decoded ciphertexts (never plaintexts), so a hot user's token is not base64-decoded on every call.
  const parsed = new Map<string, SealedParts>();
  const parse = (sealed: string): SealedParts | undefined => {
    const [format, keyId, ivText, dataText, extra] = sealed.split('.');
    const iv = ivText === undefined ? undefined : fromBase64(ivText);
    const data = dataText === undefined ? undefined : fromBase64(dataText);
    if (format !== FORMAT || !keyId || iv?.length !== IV_BYTES || !data || extra !== undefined)
      return undefined;
    if (parsed.size >= PARSED_CACHE_SIZE) parsed.delete(parsed.keys().next().value as string);
    const parts = { keyId, iv, data };
    parsed.set(sealed, parts);
    return parts;
  };
  const sealWith = async (email: string, token: string, iv: Uint8Array<ArrayBuffer>) => {
    const key = await keyring.key(keyring.primary);
    const data = await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv, additionalData: associatedData(email) },
      key,
      encoder.encode(token),
    );
    return `${FORMAT}.${keyring.primary}.${toBase64Url(iv)}.${toBase64Url(new Uint8Array(data))}`;
  };
  const cipher: TokenCipher = {
    seal: (email, token) => sealWith(email, token, crypto.getRandomValues(new Uint8Array(IV_BYTES))),
    async reseal(email, sealed) {
      const token = await cipher.open(email, sealed);
      return sealWith(email, token, (parsed.get(sealed) ?? parse(sealed))?.iv as Uint8Array<ArrayBuffer>);
    },
    async open(email, sealed) {
      const parts = parsed.get(sealed) ?? parse(sealed);
      if (parts === undefined) {
        throw new WalletTokenDecryptionError(email, undefined, `it is not in the ${FORMAT} format`);
      }
      const { keyId, iv, data } = parts;
      // The runtime's own decrypt takes the key's bytes; WebCrypto, its imported key (for a key id the
      // keyring lacks, `keyring.key` rejects with the WalletConfigError that says which to add back).
      const bytes = decrypt && keyring.bytes(keyId);
      const key = bytes ? undefined : (keyring.ready(keyId) ?? (await keyring.key(keyId)));
      try {
        const additionalData = associatedData(email);
        const plain = key
          ? await crypto.subtle.decrypt({ name: 'AES-GCM', iv, additionalData }, key, data)
          : (decrypt as AesGcmDecrypt)(bytes as Uint8Array, iv, data, additionalData);
        return decoder.decode(plain);
      } catch {
        throw new WalletTokenDecryptionError(
          email,
          keyId,
          `key "${keyId}" does not open it: it was altered, made with another key of that id, or moved from another user`,
        );
      }
    },
    keyIdOf(sealed) {
      const [format, keyId] = sealed.split('.', 2);
      return format === FORMAT && keyId ? keyId : undefined;
    },
    idOf: (sealed) => sealed.split('.', 3)[2] ?? sealed,
  };
  return cipher;
}
