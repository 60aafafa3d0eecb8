/**
 * No store error reaches the process. A `pg` client, a `pg` Pool and a node-redis client emit
 * `'error'` when the server ends a connection (a restart, a failover, `pg_terminate_backend`, an
 * idle-in-transaction time-out); an emitter with no listener for it throws, and the process exits.
 * The adapters put a listener on every connection they check out or hold, and on the pool or client
 * they are given when it has none: the drop is logged, and the work it carried fails with a rejection
 * the caller handles (a statement in flight rejects; the next one gets a new connection).
 */
import type { WalletLogger } from '../logger.js';

/** An event emitter as `pg` and node-redis clients are. */
interface ErrorEmitter {
  on(event: 'error', listener: (error: unknown) => void): unknown;
  listenerCount?(event: string): number;
}

/** The loggers each guarded connection reports to: several stores may share one pool or client. */
const guarded = new WeakMap<object, Set<WalletLogger>>();

function isEmitter(value: unknown): value is ErrorEmitter {
  return typeof value === 'object' && value !== null && typeof (value as ErrorEmitter).on === 'function';
}

/** The error as a log reads it: its name and message, never its stack or the connection's settings. */
function described(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * Listens for `'error'` on a connection the adapter checks out or holds, once per connection, and
 * logs each as a warning naming `what` it was for, to the logger of every store that guarded it
 * (each logger once). The listener stays: a connection handed back to its pool may still report the drop after.
 */
export function guardConnection(connection: unknown, logger: WalletLogger | undefined, what: string): void {
  if (!isEmitter(connection)) return;
  const known = guarded.get(connection);
  if (known !== undefined) {
    if (logger !== undefined) known.add(logger);
    return;
  }
  const loggers = new Set<WalletLogger>(logger === undefined ? [] : [logger]);
  guarded.set(connection, loggers);
  connection.on('error', (error) => {
    for (const each of loggers) {
      try {
        each.warn?.(`The store dropped a connection (${what}); the work on it is retried or reported`, {
          error: described(error),
        });
      } catch {
        // A failing logger must not turn the drop back into a crash.
      }
    }
  });
}

/**
 * Listens for `'error'` on a pool or client the merchant handed over, when nothing else does: its
 * idle connections report drops there. A listener of the merchant's own is left to do its job alone.
 */
export function guardShared(shared: unknown, logger: WalletLogger | undefined, what: string): void {
  if (!isEmitter(shared)) return;
  if (!guarded.has(shared) && typeof shared.listenerCount === 'function' && shared.listenerCount('error') > 0)
    return;
  guardConnection(shared, logger, what);
}
