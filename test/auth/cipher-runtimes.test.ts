import { randomBytes } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { loadKeyring } from '../../src/auth/keyring.js';
import { nodeAesGcmDecrypt } from '../../src/auth/node-aes-gcm.js';
import { type TokenCipher, tokenCipher } from '../../src/auth/token-cipher.js';
import { WalletConfigError, WalletTokenDecryptionError } from '../../src/index.js';

const APP_ID = 'app_demo_shop';
const EMAIL = 'alice@example.com';
const keyring = loadKeyring({ primary: 'k1', keys: { k1: randomBytes(32).toString('base64') } });
const nodeDecrypt = nodeAesGcmDecrypt();
/** Opens with node:crypto, as on Node, Bun and Deno. */
const onNode = tokenCipher(keyring, APP_ID, nodeDecrypt);
/** Opens with WebCrypto, as in a browser or a worker. */
const onWebCrypto = tokenCipher(keyring, APP_ID, undefined);
const ciphers: [string, TokenCipher][] = [
  ['node:crypto', onNode],
  ['WebCrypto', onWebCrypto],
];

/** `sealed` with one byte of its ciphertext and tag part changed at `index` (from the end). */
function altered(sealed: string, index: number): string {
  const [format, keyId, iv, data = ''] = sealed.split('.');
  const bytes = Buffer.from(data, 'base64url');
  bytes[bytes.length - index] = (bytes[bytes.length - index] ?? 0) ^ 1;
  return [format, keyId, iv, bytes.toString('base64url')].join('.');
}

test('this runtime opens tokens with node:crypto', () => {
  expect(nodeDecrypt).toBeTypeOf('function');
});

describe.each(ciphers)('opening with %s', (_name, cipher) => {
  test('reads what either seals, for tokens of every length up to the 4,096-character bound', async () => {
    for (const token of ['t', 'tok_sandbox_alice', 'x'.repeat(15), 'y'.repeat(16), 'z'.repeat(4096)]) {
      expect(await cipher.open(EMAIL, await onNode.seal(EMAIL, token))).toBe(token);
      expect(await cipher.open(EMAIL, await onWebCrypto.seal(EMAIL, token))).toBe(token);
    }
  });

  test('refuses a changed ciphertext byte, a changed tag byte, a cut tag, and another user, with WalletTokenDecryptionError', async () => {
    const sealed = await onWebCrypto.seal(EMAIL, 'tok_sandbox_alice');
    const [format, keyId, iv, data = ''] = sealed.split('.');
    const cut = [format, keyId, iv, Buffer.from(data, 'base64url').subarray(0, -4).toString('base64url')];
    const empty = [format, keyId, iv, Buffer.from(data, 'base64url').subarray(0, 8).toString('base64url')];
    const refused = [altered(sealed, 20), altered(sealed, 1), cut.join('.'), empty.join('.')];
    for (const wrong of refused) {
      await expect(cipher.open(EMAIL, wrong)).rejects.toBeInstanceOf(WalletTokenDecryptionError);
    }
    await expect(cipher.open('mallory@example.com', sealed)).rejects.toBeInstanceOf(
      WalletTokenDecryptionError,
    );
    await expect(tokenCipher(keyring, 'app_other').open(EMAIL, sealed)).rejects.toBeInstanceOf(
      WalletTokenDecryptionError,
    );
  });

  test('a token sealed under a key the keyring no longer has is a WalletConfigError naming the key', async () => {
    const sealed = await onWebCrypto.seal(EMAIL, 'tok_sandbox_alice');
    const moved = sealed.replace('mwt1.k1.', 'mwt1.k0.');
    await expect(cipher.open(EMAIL, moved)).rejects.toThrow(WalletConfigError);
    await expect(cipher.open(EMAIL, moved)).rejects.toThrow(/"k0"/);
  });
});
