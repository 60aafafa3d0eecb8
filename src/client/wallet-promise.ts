import type { WithResponse } from '../transport/response.js';

/**
 * The promise every API method returns: `await` gives the data, `.withResponse()` the data and the
 * HTTP exchange behind it (status, headers, request id, attempts, duration). A failed call rejects
 * both ways with the same error.
 *
 * @example
 * const { data, response } = await wallet.getTransaction(id).withResponse();
 * log.info('status read', { requestId: response.requestId, ms: response.durationMs });
 */
export interface WalletPromise<T> extends Promise<T> {
  /** Resolves with `{ data, response }` once the call succeeds; rejects as the call does. */
  withResponse(): Promise<WithResponse<T>>;
}

/** Wraps a call that resolves `{ data, response }` so `await` gives the data alone. */
export function walletPromise<T>(call: () => Promise<WithResponse<T>>): WalletPromise<T> {
  const full = call();
  const data = full.then((result) => result.data) as WalletPromise<T>;
  data.withResponse = () => {
    // The caller handles the failure through this promise; the data one must not also report it unhandled.
    data.catch(() => {});
    return full;
  };
  return data;
}
