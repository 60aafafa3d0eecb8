/**
 * AES-256-GCM decryption through `node:crypto`, where the runtime has it (Node, Bun, Deno), loaded
 * through `process.getBuiltinModule` so the vault still bundles for browsers and workers, which
 * decrypt with WebCrypto. It runs synchronously: WebCrypto's `decrypt` on Node sends each call to the
 * thread pool and back, about 40 µs of CPU for a token, where the decryption itself takes under 8 µs
 * (bench/token-vault.ts measures the vault's decrypts per second).
 */

/** The authentication tag GCM appends to a ciphertext, as WebCrypto writes it: 128 bits. */
const TAG_BYTES = 16;

interface Decipher {
  setAAD(data: Uint8Array): unknown;
  setAuthTag(tag: Uint8Array): unknown;
  update(data: Uint8Array): Uint8Array;
  final(): Uint8Array;
}

interface NodeCrypto {
  createDecipheriv(
    algorithm: 'aes-256-gcm',
    key: Uint8Array,
    iv: Uint8Array,
    options: { authTagLength: number },
  ): Decipher;
}

/**
 * Decrypts `data` (the ciphertext, then its 16-byte tag, as WebCrypto's AES-GCM writes it) under the
 * raw 32-byte `key`; throws when it does not authenticate, as WebCrypto's `decrypt` rejects.
 */
export type AesGcmDecrypt = (
  key: Uint8Array,
  iv: Uint8Array,
  data: Uint8Array,
  additionalData: Uint8Array,
) => Uint8Array;

/** `node:crypto`'s AES-256-GCM decryption, or `undefined` where the runtime has no `node:crypto`. */
export function nodeAesGcmDecrypt(): AesGcmDecrypt | undefined {
  const runtime = globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } };
  const nodeCrypto = runtime.process?.getBuiltinModule?.('node:crypto') as NodeCrypto | undefined;
  if (typeof nodeCrypto?.createDecipheriv !== 'function') return undefined;
  return (key, iv, data, additionalData) => {
    if (data.length < TAG_BYTES) throw new Error('the ciphertext is shorter than its tag');
    // The tag length is fixed: a shorter tag given to setAuthTag would be accepted, and weaker.
    const decipher = nodeCrypto.createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(additionalData);
    decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
    const head = decipher.update(data.subarray(0, data.length - TAG_BYTES));
    const tail = decipher.final();
    if (tail.length === 0) return head;
    const plain = new Uint8Array(head.length + tail.length);
    plain.set(head);
    plain.set(tail, head.length);
    return plain;
  };
}
