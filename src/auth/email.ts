import { WalletRequestValidationError } from '../errors.js';
import { MAX_EMAIL_LENGTH } from '../limits.js';

/**
 * `email` as the vault keys it: trimmed and lower-cased.
 * @throws {WalletRequestValidationError} naming `field` when it is not an e-mail address, or is
 *   longer than `MAX_EMAIL_LENGTH` (254) characters.
 */
export function normalizeEmail(email: unknown, field: string): string {
  const normalized = typeof email === 'string' ? email.trim().toLowerCase() : '';
  if (normalized.length > MAX_EMAIL_LENGTH) {
    throw new WalletRequestValidationError([
      { path: field, message: `must be an e-mail address of at most ${MAX_EMAIL_LENGTH} characters` },
    ]);
  }
  if (!/^[^\s@]+@[^\s@]+$/.test(normalized)) {
    throw new WalletRequestValidationError([
      { path: field, message: 'must be the e-mail address of a wallet user' },
    ]);
  }
  return normalized;
}
