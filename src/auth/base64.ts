/** Base64 and base64url without `Buffer`, so the vault runs on every runtime WebCrypto does. */

const URL_SAFE = /^[A-Za-z0-9_-]*$/;
const STANDARD = /^[A-Za-z0-9+/]*={0,2}$/;

/** `bytes` in base64url, unpadded. */
export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** The bytes of base64 or base64url text (padding optional); `undefined` when it is neither. */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!URL_SAFE.test(text) && !STANDARD.test(text)) return undefined;
  const standard = text.replaceAll('-', '+').replaceAll('_', '/').replace(/=+$/, '');
  if (standard.length % 4 === 1) return undefined;
  const binary = atob(standard + '='.repeat((4 - (standard.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}
