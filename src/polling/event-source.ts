import { WalletRequestValidationError } from '../errors.js';
import type { TransactionResult } from '../schemas/responses.js';

/** Anything that names a transaction: a parsed transaction webhook, a queue message, a status result. */
export interface TransactionEventLike {
  /** The transaction the event is about; events about other transactions are ignored. */
  readonly transaction_id: string;
}

/**
 * What a webhook handler knows about an event, as `onTransaction` receives it. Only
 * `verified: true` with a `status` (the status endpoint's answer, read back by a handler made
 * with `verifyWith`) is trusted; anything else is a hint that makes the wait read the status now.
 */
export interface TransactionEventContext {
  /** `true` when `status` was read back from the status endpoint for this event. */
  readonly verified: boolean;
  /** The status endpoint's answer, present when `verified`. */
  readonly status?: TransactionResult | undefined;
}

/** A listener with the signature of the webhook handler's `onTransaction`. */
export type TransactionEventListener = (
  event: TransactionEventLike,
  context?: TransactionEventContext,
) => void;

/** What an RxJS-style `subscribe` returns. */
export interface Unsubscribable {
  /** Stops the calls to the listener. */
  unsubscribe(): void;
}

/**
 * An `onTransaction`-style subscription, such as `createTransactionEvents()` or an RxJS subject
 * of `(event, context)` pairs. `subscribe` returns how to stop: a function, or an object with `unsubscribe()`.
 */
export interface TransactionEventSubscription {
  /** Starts calling `listener` with each event; the return value stops it. */
  subscribe(listener: TransactionEventListener): (() => void) | Unsubscribable;
}

/**
 * Where `waitForTransaction` and `watchTransaction` hear about transaction events, so they can
 * finish as soon as one arrives instead of at the next poll:
 *
 * - a {@link TransactionEventSubscription}, such as `createTransactionEvents()` fed by the webhook
 *   handler's `onTransaction`: an event whose context is `verified` with a final `status` ends the
 *   wait with that status, without another request;
 * - an `AsyncIterable` of {@link TransactionEventLike} (each wait calls `[Symbol.asyncIterator]()`
 *   once and `return()` on it when done, so give each wait its own iterator, e.g. `events.on()`);
 * - an `EventTarget` dispatching `'transaction'` events whose `detail` is a {@link TransactionEventLike}.
 *
 * Events from the last two, and unverified ones from a subscription, are never taken at their
 * word: each makes the wait read the status at once (one read at a time, however many arrive).
 */
export type TransactionEventSource =
  | TransactionEventSubscription
  | AsyncIterable<TransactionEventLike>
  | EventTarget;

/** What a run does with an event about its transaction. */
export interface EventFollower {
  /** A final status the webhook handler read back: end with it. */
  settle(result: TransactionResult): void;
  /** An unverified hint: read the status now. */
  wake(): void;
}

const FINAL_STATUSES: ReadonlySet<string> = new Set(['completed', 'failed']);

type SourceKind = 'subscription' | 'iterable' | 'target';

/** Which of the three kinds of {@link TransactionEventSource} `source` is, if any: the one place that decides. */
export function eventSourceKind(source: unknown): SourceKind | undefined {
  if (typeof source !== 'object' || source === null) return undefined;
  const candidate = source as Partial<Record<PropertyKey, unknown>>;
  if (typeof candidate.subscribe === 'function') return 'subscription';
  if (typeof candidate[Symbol.asyncIterator] === 'function') return 'iterable';
  const isTarget =
    typeof candidate.addEventListener === 'function' && typeof candidate.removeEventListener === 'function';
  return isTarget ? 'target' : undefined;
}

/**
 * Routes the events about `transactionId` from `source` to `follower` and returns how to stop.
 * Trust comes only from a subscription's context, which code writes: a webhook body can carry
 * any extra field, so nothing in the event itself can make it verified.
 */
export function followEvents(
  source: TransactionEventSource,
  transactionId: string,
  follower: EventFollower,
): () => void {
  const onEvent = (event: unknown, context?: TransactionEventContext) => {
    if ((event as TransactionEventLike | null | undefined)?.transaction_id !== transactionId) return;
    const status = context?.verified === true ? context.status : undefined;
    if (status?.transaction_id === transactionId && FINAL_STATUSES.has(status.transaction_status)) {
      follower.settle(status);
    } else if (status === undefined) {
      follower.wake();
    }
    // A verified status that is not final says the webhook claimed more than the service confirms.
  };
  const kind = eventSourceKind(source);
  if (kind === 'subscription') return subscription(source as TransactionEventSubscription, onEvent);
  if (kind === 'iterable') return iterate(source as AsyncIterable<TransactionEventLike>, onEvent);
  const target = source as EventTarget;
  const listener = (event: Event) => onEvent((event as CustomEvent<unknown>).detail);
  target.addEventListener('transaction', listener);
  return () => target.removeEventListener('transaction', listener);
}

function subscription(source: TransactionEventSubscription, onEvent: TransactionEventListener): () => void {
  const handle = source.subscribe(onEvent);
  if (typeof handle === 'function') return handle;
  if (typeof handle?.unsubscribe === 'function') return () => handle.unsubscribe();
  throw new WalletRequestValidationError([
    {
      path: 'options.events',
      message: 'subscribe() must return a function or an object with an unsubscribe() method',
    },
  ]);
}

/** Pulls events until stopped; a source that ends or fails leaves the polling to finish the wait. */
function iterate(source: AsyncIterable<TransactionEventLike>, onEvent: (event: unknown) => void): () => void {
  const iterator = source[Symbol.asyncIterator]();
  let following = true;
  const pull = (): void => {
    let next: Promise<IteratorResult<TransactionEventLike>>;
    try {
      next = Promise.resolve(iterator.next());
    } catch {
      return;
    }
    next.then((step) => {
      if (!following || step.done) return;
      onEvent(step.value);
      pull();
    }, ignore);
  };
  pull();
  return () => {
    following = false;
    // A rejection of `return()` must not become an unhandled one.
    Promise.resolve()
      .then(() => iterator.return?.())
      .catch(ignore);
  };
}

function ignore(): void {}
