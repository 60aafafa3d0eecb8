import type { WalletEndpoint } from '../error-codes.js';
import { WalletAbortError } from '../errors.js';

/** The limits a call puts on each of its journal writes: its `signal` and its `timeoutMs`. */
export interface JournalBounds {
  readonly endpoint: WalletEndpoint;
  readonly signal: AbortSignal | undefined;
  readonly timeoutMs: number;
}

/** A journal write that did not answer within the call's time limit. */
export class JournalTimeout extends Error {
  override readonly name = 'JournalTimeout';
  constructor(timeoutMs: number) {
    super(`the journal did not answer within ${timeoutMs} ms`);
  }
}

/**
 * `write`'s result, or a rejection once `bounds.signal` aborts (a `WalletAbortError`) or
 * `bounds.timeoutMs` passes (a {@link JournalTimeout}), whichever comes first. The write itself
 * goes on: a store cannot take back a statement it was sent; the caller decides what that means.
 */
export function bounded<T>(write: Promise<T>, bounds: JournalBounds): Promise<T> {
  const { signal, timeoutMs, endpoint } = bounds;
  if (signal?.aborted) {
    write.catch(() => {});
    return Promise.reject(new WalletAbortError(endpoint, signal.reason));
  }
  return new Promise<T>((resolve, reject) => {
    const stop = (error: Error) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      reject(error);
    };
    const onAbort = () => stop(new WalletAbortError(endpoint, signal?.reason));
    const timer = setTimeout(() => stop(new JournalTimeout(timeoutMs)), timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    write.then(
      (value) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => stop(error instanceof Error ? error : new Error(String(error))),
    );
  });
}
