import { codesOfKind } from '../error-codes.js';
import { type WalletApiError, WalletError, type WalletResponseValidationError } from '../errors.js';

/** Codes that no amount of waiting will change. */
const FATAL_CODES = codesOfKind((kinds) => kinds.poll === 'stop');
/** Codes that may mean "not visible yet": the status endpoint may lag behind the call that created it. */
const NOT_YET_VISIBLE_CODES = codesOfKind((kinds) => kinds.poll === 'while-new');
/** Codes always worth another read, whatever the HTTP status. */
const RETRIED_CODES = codesOfKind((kinds) => kinds.poll === 'retry');
/** HTTP statuses that say "try again later" even without a recognised code. */
const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([408, 425, 429]);

/**
 * Whether a failed status read is worth another try before the poll deadline.
 * `withinNotFoundGrace` says whether the wait is still young enough for `transaction_not_found`
 * to mean "not visible yet": the status endpoint may lag behind the call that created it.
 */
export function isRetryableReadError(error: unknown, withinNotFoundGrace: boolean): boolean {
  // Checked by name, as the SDK's own guards do, so errors from the other build (ESM/CJS) count too.
  if (!(error instanceof WalletError)) return false;
  switch (error.name) {
    case 'WalletConnectionError':
    case 'WalletTimeoutError':
      return true;
    case 'WalletResponseValidationError':
      // A 2xx body of an unexpected shape is most likely a status this SDK does not know yet
      // (never taken as final) or a proxy's page; polling on is safer than giving up.
      return true;
    case 'WalletApiError': {
      const { code, status } = error as WalletApiError;
      if (NOT_YET_VISIBLE_CODES.has(code)) return withinNotFoundGrace;
      if (FATAL_CODES.has(code)) return false;
      return RETRIED_CODES.has(code) || status >= 500 || TRANSIENT_STATUSES.has(status);
    }
    default:
      return false;
  }
}

/**
 * The wait a 429 or 503 answer asked for with `Retry-After`, in milliseconds; 0 for any other error.
 * Read by name and field, as above, so errors of the other build count too.
 */
export function requestedDelayMs(error: unknown): number {
  if (!(error instanceof WalletError) || error.name !== 'WalletApiError') return 0;
  const { status, retryAfterMs } = error as WalletApiError;
  return (status === 429 || status === 503) && retryAfterMs !== undefined ? retryAfterMs : 0;
}

/**
 * The raw `transaction_status` of a body that failed validation, e.g. a value this SDK does not
 * know, when that body is about `transactionId`: another transaction's status is never reported as this one's.
 */
export function unvalidatedStatus(error: unknown, transactionId: string): string | undefined {
  if (!(error instanceof WalletError) || error.name !== 'WalletResponseValidationError') return undefined;
  const body = (error as WalletResponseValidationError).body as Record<string, unknown> | null;
  if (typeof body !== 'object' || body === null || body.transaction_id !== transactionId) return undefined;
  return typeof body.transaction_status === 'string' ? body.transaction_status : undefined;
}
