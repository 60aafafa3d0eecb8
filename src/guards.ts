import type { WalletApiErrorCode } from './error-codes.js';
import { WalletApiError, WalletError } from './errors.js';

/**
 * Whether `error` was thrown by this SDK. Works across the ESM and CJS builds and across realms.
 */
export function isWalletError(error: unknown): error is WalletError {
  return error instanceof WalletError;
}

/**
 * Whether `error` is an API error, optionally with a given code; narrows `error.code`.
 *
 * @example
 * if (isWalletApiError(err, 'insufficient_balance')) offerTopUp(err.endpoint);
 */
export function isWalletApiError<C extends WalletApiErrorCode = WalletApiErrorCode>(
  error: unknown,
  code?: C,
): error is WalletApiError<C> {
  if (!(error instanceof WalletApiError)) return false;
  return code === undefined || (error as WalletApiError).code === code;
}
