import type { ResponseSlot, WalletResponse, WithResponse } from '../transport/response.js';

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

/** Where a promise keeps its call's slot, for the one `withResponse` all promises share. */
const SLOT = Symbol('merchant-wallet.slot');

type SlottedPromise<T> = WalletPromise<T> & { [SLOT]?: ResponseSlot };

/**
 * Gives the promise of `call`'s data a `.withResponse()` that adds the exchange `call` left in its
 * slot. The data is the call's own promise, not a step after it, and the method is shared rather
 * than made per call: less for every call. What `call` throws becomes the rejection.
 */
export function walletPromise<T>(call: (slot: ResponseSlot) => Promise<T>): WalletPromise<T> {
  const slot: ResponseSlot = {};
  let data: SlottedPromise<T>;
  try {
    data = call(slot) as SlottedPromise<T>;
  } catch (error) {
    // A refusal before sending (a bad argument, a closed client) rejects like any other failure.
    data = Promise.reject(error) as SlottedPromise<T>;
  }
  data[SLOT] = slot;
  data.withResponse = withResponse;
  return data;
}

/** Like `then`, it is a method of the promise: call it on the promise, as `promise.withResponse()`. */
function withResponse<T>(this: SlottedPromise<T>): Promise<WithResponse<T>> {
  const slot = this[SLOT] as ResponseSlot;
  // Following the promise also marks it handled: a failure is reported once, through this promise.
  return this.then((data) => ({ data, response: slot.answered?.response as WalletResponse }));
}
