import type { WalletApiErrorCode } from './error-codes.js';
import { type WalletApiError, WalletError } from './errors.js';

/**
 * Whether `error` was thrown by this SDK. Works across the ESM and CJS builds and across realms.
 */
export function isWalletError(error: unknown): error is WalletError {
  return error instanceof WalletError;
}

/** `WalletApiError` and its subclass's names: `name` tells them apart across builds and realms. */
const API_ERROR_NAMES = new Set(['WalletApiError', 'WalletReauthorizationRequiredError']);

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
  if (!(error instanceof WalletError) || !API_ERROR_NAMES.has(error.name)) return false;
  return code === undefined || (error as WalletApiError).code === code;
}
