import { WalletRequestValidationError } from '../errors.js';
import type { WalletLogger } from '../logger.js';
import type {
  TransactionEventContext,
  TransactionEventLike,
  TransactionEventListener,
  TransactionEventSubscription,
} from '../polling/event-source.js';
import {
  type ConnectionStatus,
  createConnectionStatus,
  type TransactionEventsHealth,
} from '../polling/event-source-health.js';
import { createTransactionEvents } from '../polling/transaction-events.js';
import { decodeEventMessage, encodeEventMessage, encodeProbe, MAX_ID_LENGTH } from './event-message.js';

/** Where a failure reported to the `onError` of a shared transaction-event source happened. */
export interface TransactionEventsErrorInfo {
  /**
   * - `publish`: a message could not be sent; the other instances learn of the event at their next poll.
   * - `message`: a received message was malformed (not JSON, unknown version, a status that fails the
   *   `TransactionResult` schema) and was dropped. The error is a `WalletResponseValidationError`.
   * - `listener`: a listener threw on a received event; the other listeners still ran.
   * - `connection`: the listening connection failed or dropped. It is being re-established; events
   *   published meanwhile are not received, so waits learn of them at their next poll.
   */
  readonly stage: 'publish' | 'message' | 'listener' | 'connection';
}

/** Told about each failure a shared transaction-event source hides from its caller. Errors it throws are ignored. */
export type TransactionEventsErrorHandler = (error: unknown, info: TransactionEventsErrorInfo) => void;

/**
 * Transaction events shared by every instance of an application: {@link SharedTransactionEvents.publish}
 * hands an event to the listeners of this instance at once and sends it to the others, whose listeners
 * get it as soon as it arrives. Pass `publish` as the webhook handler's `onTransaction` (or call it from
 * yours), and the object itself as the `events` option of `waitForTransaction` / `watchTransaction`.
 *
 * **Trust.** A message carries the transaction id and, when the publishing handler verified the event
 * (`verifyWith`), the status it read back. A received status is checked against the `TransactionResult`
 * schema and must name the message's transaction; a message that fails is dropped (reported to
 * `onError`), never passed on. A valid status is then trusted as verified, by default: the channel lives
 * in the merchant's own PostgreSQL or Redis, the same trust as the payment journal, and a wait ends with
 * it without another request. With `trustPeerStatus: false` every received event is a hint instead, and
 * each wait it concerns reads the status itself at once.
 */
export interface SharedTransactionEvents extends TransactionEventSubscription {
  /**
   * Hands `event` and the handler's `context` to every listener of this instance, then sends it to the
   * other instances. Bound, so it can be passed as `onTransaction` as it is. Resolves once sent; a failed
   * send is reported to `onError` and never rejects (the other instances still poll), but a local
   * listener that throws makes it reject with that error, as `createTransactionEvents()` does. Does
   * nothing after {@link SharedTransactionEvents.close}.
   */
  readonly publish: (event: TransactionEventLike, context?: TransactionEventContext) => Promise<void>;
  /**
   * Calls `listener` with every event published from now on, on this instance or another, until the
   * returned function is called. Events from other instances carry a context only when verified.
   */
  subscribe(listener: TransactionEventListener): () => void;
  /**
   * Where the listening connection stands (connected, reconnecting since when, the last error's code):
   * pass the source as `journalHealth({ events })` to see it beside the journal's health.
   */
  health(): TransactionEventsHealth;
  /** Stops listening and releases the connection it holds; no listener is called again. Safe to call twice. */
  close(): Promise<void>;
}

/** How a store sends messages and lets go of its connections. */
export interface EventWire {
  send(message: string): Promise<void>;
  close(): Promise<void>;
}

/** The store-independent half of a shared transaction-event source. */
export interface EventHub {
  /** Takes a message off the wire; never throws. */
  receive(text: string): void;
  /** Reports to `onError`, which must never throw at its caller. */
  report(error: unknown, stage: TransactionEventsErrorInfo['stage']): void;
  /** The listening connection's state, logged as it changes and answered by `health()`. */
  readonly status: ConnectionStatus;
  /** The public object, sending through `wire`. */
  connect(wire: EventWire): SharedTransactionEvents;
  /**
   * Sends a probe through `wire` and resolves `true` once this instance hears it back, or `false`
   * after `timeoutMs`: the one way to tell a LISTEN that hears nothing.
   */
  heard(wire: EventWire, timeoutMs: number): Promise<boolean>;
}

/** Creates the {@link EventHub} a PostgreSQL or Redis source wraps around its connections. */
export function createEventHub(settings: {
  readonly trustPeerStatus: boolean;
  readonly onError: TransactionEventsErrorHandler | undefined;
  readonly logger: WalletLogger | undefined;
  /** The source, as logs name it. */
  readonly name: string;
}): EventHub {
  const origin = globalThis.crypto.randomUUID();
  const status = createConnectionStatus(settings.name, settings.logger);
  const local = createTransactionEvents();
  let closed = false;
  let probeHeard: (() => void) | undefined;
  const report: EventHub['report'] = (error, stage) => {
    try {
      settings.onError?.(error, { stage });
    } catch {
      // A failing reporter must not break delivery.
    }
  };
  return {
    report,
    status,
    receive(text) {
      if (closed) return;
      const message = decodeEventMessage(text);
      if (message instanceof Error) return report(message, 'message');
      if ('probe' in message) {
        if (message.origin === origin) probeHeard?.();
        return;
      }
      // This instance's own message: its listeners had the event when it was published.
      if (message.origin === origin) return;
      const context =
        message.status !== undefined && settings.trustPeerStatus
          ? { verified: true, status: message.status }
          : undefined;
      try {
        local.publish(message.event, context);
      } catch (error) {
        report(error, 'listener');
      }
    },
    heard(wire, timeoutMs) {
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(false), timeoutMs);
        timer.unref?.();
        probeHeard = () => {
          clearTimeout(timer);
          resolve(true);
        };
        wire.send(encodeProbe(origin)).catch(() => undefined);
      });
    },
    connect(wire) {
      return {
        publish: async (event, context) => {
          if (closed) return;
          const message = encodeEventMessage(origin, event, context);
          let failure: { error: unknown } | undefined;
          try {
            local.publish(event, context);
          } catch (error) {
            failure = { error };
          }
          if (message === undefined) {
            report(
              new WalletRequestValidationError([
                {
                  path: 'event.transaction_id',
                  message: `must be a string of 1 to ${MAX_ID_LENGTH} characters`,
                },
              ]),
              'publish',
            );
          } else {
            await wire.send(message).catch((error: unknown) => report(error, 'publish'));
          }
          if (failure) throw failure.error;
        },
        subscribe: (listener) => (closed ? () => undefined : local.subscribe(listener)),
        health: () => status.health(),
        close: async () => {
          if (closed) return;
          closed = true;
          status.closed();
          await wire.close();
        },
      };
    },
  };
}
