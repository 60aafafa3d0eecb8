/**
 * A merchant's identity: a fingerprint of its API key and base URL. It names whose payment an
 * intent or an error is, so that no client of another merchant re-sends it, and is no secret:
 * SHA-256 cannot be reversed, and an API key has far too much entropy to be guessed from it.
 *
 * SHA-256 is computed here, synchronously, rather than with `crypto.subtle.digest`, which only
 * answers in a promise: the identity is read when a client is built and on every error it throws.
 */

const ROUND_CONSTANTS = Uint32Array.from(
  // The first 32 bits of the fractional parts of the cube roots of the first 64 primes.
  '428a2f98 71374491 b5c0fbcf e9b5dba5 3956c25b 59f111f1 923f82a4 ab1c5ed5 d807aa98 12835b01 243185be 550c7dc3 72be5d74 80deb1fe 9bdc06a7 c19bf174 e49b69c1 efbe4786 0fc19dc6 240ca1cc 2de92c6f 4a7484aa 5cb0a9dc 76f988da 983e5152 a831c66d b00327c8 bf597fc7 c6e00bf3 d5a79147 06ca6351 14292967 27b70a85 2e1b2138 4d2c6dfc 53380d13 650a7354 766a0abb 81c2c92e 92722c85 a2bfe8a1 a81a664b c24b8b70 c76c51a3 d192e819 d6990624 f40e3585 106aa070 19a4c116 1e376c08 2748774c 34b0bcb5 391c0cb3 4ed8aa4a 5b9cca4f 682e6ff3 748f82ee 78a5636f 84c87814 8cc70208 90befffa a4506ceb bef9a3f7 c67178f2'
    .split(' ')
    .map((word) => Number.parseInt(word, 16)),
);

const rotate = (value: number, bits: number) => (value >>> bits) | (value << (32 - bits));

/** The SHA-256 digest of `text` (UTF-8), as 64 hexadecimal digits. */
export function sha256Hex(text: string): string {
  const bytes = new TextEncoder().encode(text);
  // The message, a 1 bit, zeros, and its length in bits as a 64-bit big-endian number.
  const padded = new Uint8Array(Math.ceil((bytes.length + 9) / 64) * 64);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bytes.length / 0x20000000));
  view.setUint32(padded.length - 4, bytes.length * 8);
  const hash = Uint32Array.of(
    0x6a09e667,
    0xbb67ae85,
    0x3c6ef372,
    0xa54ff53a,
    0x510e527f,
    0x9b05688c,
    0x1f83d9ab,
    0x5be0cd19,
  );
  const words = new Uint32Array(64);
  for (let block = 0; block < padded.length; block += 64) {
    for (let i = 0; i < 16; i++) words[i] = view.getUint32(block + i * 4);
    for (let i = 16; i < 64; i++) {
      const w15 = words[i - 15] as number;
      const w2 = words[i - 2] as number;
      const s0 = rotate(w15, 7) ^ rotate(w15, 18) ^ (w15 >>> 3);
      const s1 = rotate(w2, 17) ^ rotate(w2, 19) ^ (w2 >>> 10);
      words[i] = (words[i - 16] as number) + s0 + (words[i - 7] as number) + s1;
    }
    let [a, b, c, d, e, f, g, h] = hash as unknown as number[] as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    for (let i = 0; i < 64; i++) {
      const t1 =
        (h +
          (rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)) +
          ((e & f) ^ (~e & g)) +
          (ROUND_CONSTANTS[i] as number) +
          (words[i] as number)) |
        0;
      const t2 = ((rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      [h, g, f, e, d, c, b, a] = [g, f, e, (d + t1) | 0, c, b, a, (t1 + t2) | 0];
    }
    [a, b, c, d, e, f, g, h].forEach((value, i) => {
      hash[i] = (hash[i] as number) + value;
    });
  }
  return Array.from(hash, (word) => word.toString(16).padStart(8, '0')).join('');
}

/**
 * A fingerprint of `apiKey` alone: `mk1:` and 16 hex digits (64 bits) of SHA-256. Intents carry it
 * beside the identity, so that one key seen under several identities (one merchant, two base URLs)
 * can be told.
 */
export function keyFingerprint(apiKey: string): string {
  return `mk1:${sha256Hex(`merchant-wallet key\n${apiKey}`).slice(0, 16)}`;
}

/**
 * The identity of the merchant that `apiKey` authenticates at `baseUrl`: `mw1:` and 32 hex digits
 * (128 bits) of SHA-256 over both.
 */
export function merchantIdentity(apiKey: string, baseUrl: string): string {
  return `mw1:${sha256Hex(`merchant-wallet identity\n${baseUrl}\n${apiKey}`).slice(0, 32)}`;
}
