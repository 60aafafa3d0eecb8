import type { WalletLogger } from '../logger.js';

/**
 * Where a shared transaction-event source's listening connection stands:
 * - `connecting`: the first attempt has not answered yet;
 * - `connected`: listening; events from other instances arrive as they are published;
 * - `reconnecting`: an attempt failed or the connection dropped, and it is being re-established with
 *   backoff; events published meanwhile are not heard here, so waits end at their next poll;
 * - `closed`: `close()` was called.
 */
export type TransactionEventsState = 'connecting' | 'connected' | 'reconnecting' | 'closed';

/** What a shared transaction-event source reports of its listening connection; never a secret. */
export interface TransactionEventsHealth {
  /** Where the listening connection stands. */
  readonly state: TransactionEventsState;
  /** When it entered that state, on this process's clock (ISO 8601). */
  readonly since: string;
  /** Attempts that failed since it last listened (0 while connected). */
  readonly failedAttempts: number;
  /**
   * The code (`ECONNREFUSED`, `57P01`) or else the class name of the last connection error, if any:
   * never its message, which may quote an address.
   */
  readonly lastError?: string;
}

/** Follows a source's listening connection, logs its changes and answers {@link TransactionEventsHealth}. */
export interface ConnectionStatus {
  /** The listening connection answered (at start-up or again after a failure). */
  connected(): void;
  /** An attempt failed or the connection dropped; the next attempt follows in `retryInMs`, when the source schedules it. */
  failed(error: unknown, retryInMs?: number): void;
  /** `close()` was called. */
  closed(): void;
  health(): TransactionEventsHealth;
}

/** The code or class name of `error`: what a log and `journalHealth()` may show of it. */
export function errorLabel(error: unknown): string {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  if (typeof code === 'string' && code.length > 0 && code.length <= 40) return code;
  if (error instanceof Error) return error.name;
  return typeof error;
}

/**
 * A {@link ConnectionStatus} for the source named `what`, reporting to `logger`: a warning when the
 * connection is lost or the first attempt fails, a debug line for each further failed attempt, and
 * a notice once it listens again, with how many attempts it took.
 */
export function createConnectionStatus(what: string, logger: WalletLogger | undefined): ConnectionStatus {
  let state: TransactionEventsState = 'connecting';
  let since = new Date();
  let failedAttempts = 0;
  let lastError: string | undefined;
  const enter = (next: TransactionEventsState) => {
    if (next === state) return;
    state = next;
    since = new Date();
  };
  const log = (level: 'debug' | 'info' | 'warn', message: string, meta: Record<string, unknown>) => {
    try {
      logger?.[level]?.(message, meta);
    } catch {
      // A failing logger must not stop the source from reconnecting.
    }
  };
  return {
    connected() {
      if (state === 'closed' || state === 'connected') return;
      if (state === 'reconnecting') {
        log('info', `${what}: listening again`, {
          failedAttempts,
          downMs: Date.now() - since.getTime(),
        });
      }
      failedAttempts = 0;
      enter('connected');
    },
    failed(error, retryInMs) {
      if (state === 'closed') return;
      lastError = errorLabel(error);
      failedAttempts += 1;
      const meta = { error: lastError, failedAttempts, ...(retryInMs === undefined ? {} : { retryInMs }) };
      if (state === 'reconnecting') {
        log('debug', `${what}: still not listening`, meta);
        return;
      }
      log(
        'warn',
        state === 'connected'
          ? `${what}: the listening connection dropped; re-establishing it with backoff, waits poll meanwhile`
          : `${what}: could not listen at start-up; retrying with backoff, waits poll meanwhile`,
        meta,
      );
      enter('reconnecting');
    },
    closed() {
      enter('closed');
    },
    health: () => ({
      state,
      since: since.toISOString(),
      failedAttempts,
      ...(lastError === undefined ? {} : { lastError }),
    }),
  };
}
