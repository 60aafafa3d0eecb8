import type {
  TransactionEventContext,
  TransactionEventLike,
  TransactionEventListener,
  TransactionEventSubscription,
} from './event-source.js';

/**
 * Transaction events fanned out to everyone waiting for them: pass `publish` as the webhook
 * handler's `onTransaction` (or call it from yours), and the object itself as the `events` option
 * of `waitForTransaction` / `watchTransaction`.
 */
export interface TransactionEvents extends TransactionEventSubscription {
  /**
   * Hands `event` and the handler's `context` to every listener. Bound, so it can be passed as
   * `onTransaction` as it is. Every listener runs even if one throws; the first error is then
   * rethrown, so the handler answers 500 and the event is delivered again.
   */
  readonly publish: (event: TransactionEventLike, context?: TransactionEventContext) => void;
  /** Calls `listener` with every event published from now on, until the returned function is called. */
  subscribe(listener: TransactionEventListener): () => void;
}

/**
 * Creates a {@link TransactionEvents} hub, so waits in this process wake on the webhook rather
 * than the next poll. With a handler made with `verifyWith`, each published context carries the
 * status read back from the API, and a wait ends with it without another request.
 *
 * @example
 * const transactionEvents = createTransactionEvents();
 * const handler = createWebhookHandler({
 *   verifyWith: wallet,
 *   onTransaction: async (event, context) => {
 *     if (context.verified) await orders.settle(context.status);
 *     transactionEvents.publish(event, context);
 *   },
 * });
 * const final = await wallet.waitForTransaction(deposit.transaction_id, { events: transactionEvents });
 */
export function createTransactionEvents(): TransactionEvents {
  const listeners = new Set<TransactionEventListener>();
  return {
    publish(event, context) {
      let failure: { error: unknown } | undefined;
      for (const listener of listeners) {
        try {
          listener(event, context);
        } catch (error) {
          failure ??= { error };
        }
      }
      if (failure) throw failure.error;
    },
    subscribe(listener) {
      // A wrapper per subscription, so subscribing the same function twice needs two unsubscribes.
      const entry: TransactionEventListener = (event, context) => listener(event, context);
      listeners.add(entry);
      return () => void listeners.delete(entry);
    },
  };
}
