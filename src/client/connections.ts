import { WalletConfigError } from '../errors.js';
import type { CallsInFlight } from '../transport/send.js';

/**
 * The connections of a client and of every client derived from it: counts the calls in flight so
 * that closing waits for them, then frees the sockets. Only the client that created the
 * connections closes them; a derived client that shares them only stops taking calls.
 */
export class Connections implements CallsInFlight {
  #inFlight = 0;
  #closed: Promise<void> | undefined;
  #drained: (() => void) | undefined;
  readonly #destroy: () => void;

  /** @param destroy frees the sockets (a no-op for transports that hold none). */
  constructor(destroy: () => void) {
    this.#destroy = destroy;
  }

  /** Whether {@link Connections.close} was called. */
  get closed(): boolean {
    return this.#closed !== undefined;
  }

  /** Counts a call that has just started: closing waits for it. */
  started(): void {
    this.#inFlight += 1;
  }

  /** Counts a call that has settled; the last one lets a pending close free the sockets. */
  ended(): void {
    this.#inFlight -= 1;
    if (this.#inFlight === 0) this.#drained?.();
  }

  /** Lets the calls in flight finish, then destroys the sockets. Closing twice is harmless. */
  close(): Promise<void> {
    this.#closed ??= new Promise<void>((resolve) => {
      this.#drained = () => {
        this.#destroy();
        resolve();
      };
      if (this.#inFlight === 0) this.#drained();
    });
    return this.#closed;
  }
}

/** The error of a call on a closed client: nothing is sent. */
export function closedClientError(): WalletConfigError {
  return new WalletConfigError('client', 'is closed: close() was called, so no request is sent');
}
