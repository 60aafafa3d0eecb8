import type { TransactionResult, WebhookEvent } from '../../index.js';

/** A webhook the merchant app accepted; `verified` when it was read back from the status endpoint. */
export interface ReceivedWebhook {
  readonly event: WebhookEvent;
  readonly verified: boolean;
  /** The status read back for a verified transaction event. */
  readonly status?: TransactionResult;
}

/** Received webhooks, and a way to wait for one without polling or sleeping. */
export interface Inbox {
  readonly received: readonly ReceivedWebhook[];
  add(webhook: ReceivedWebhook): void;
  /** The first webhook (already received or still to come) that matches, or a rejection after `timeoutMs`. */
  waitFor(match: (webhook: ReceivedWebhook) => boolean, timeoutMs?: number): Promise<ReceivedWebhook>;
  /** Rejects every wait still open, so nothing keeps the process alive. */
  close(): void;
}

interface Waiter {
  match: (webhook: ReceivedWebhook) => boolean;
  resolve: (webhook: ReceivedWebhook) => void;
  reject: (error: Error) => void;
}

/** Creates an empty inbox. */
export function createInbox(): Inbox {
  const received: ReceivedWebhook[] = [];
  const waiters = new Set<Waiter>();
  return {
    received,
    add(webhook) {
      received.push(webhook);
      for (const waiter of waiters) if (waiter.match(webhook)) waiter.resolve(webhook);
    },
    waitFor(match, timeoutMs = 3_000) {
      const found = received.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => waiter.reject(new Error(`no matching webhook within ${timeoutMs} ms`)),
          timeoutMs,
        );
        const settle = () => {
          clearTimeout(timer);
          waiters.delete(waiter);
        };
        const waiter: Waiter = {
          match,
          resolve: (webhook) => {
            settle();
            resolve(webhook);
          },
          reject: (error) => {
            settle();
            reject(error);
          },
        };
        waiters.add(waiter);
      });
    },
    close() {
      for (const waiter of waiters) waiter.reject(new Error('inbox closed'));
    },
  };
}
