import { WalletRequestValidationError } from '../errors.js';

const MAX_EMAIL_LENGTH = 254;

/**
 * `email` as the vault keys it: trimmed and lower-cased.
 * @throws {WalletRequestValidationError} naming `field` when it is not an e-mail address.
 */
export function normalizeEmail(email: unknown, field: string): string {
  const normalized = typeof email === 'string' ? email.trim().toLowerCase() : '';
  if (!/^[^\s@]+@[^\s@]+$/.test(normalized) || normalized.length > MAX_EMAIL_LENGTH) {
    throw new WalletRequestValidationError([
      { path: field, message: 'must be the e-mail address of a wallet user' },
    ]);
  }
  return normalized;
}
