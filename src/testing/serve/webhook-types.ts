import type { ForgeryKind } from '../forge/forgery.js';
import type { DeliveryMode, DeliveryPlan } from '../model/delivery-plan.js';
import type { SandboxWebhookEvent } from '../model/transactions.js';

/** Retry policy of webhook deliveries. */
export interface WebhookRetryOptions {
  /** Attempts per delivery, the first included; 1 to 20. @default 3 */
  attempts?: number;
  /** Wait before the second attempt, 0 to 60000 ms; each later wait doubles. @default 50 */
  backoffMs?: number;
  /** Time limit of one attempt, 1 to 600000 ms. @default 2000 */
  timeoutMs?: number;
}

/** One HTTP attempt of a delivery. */
export interface WebhookAttempt {
  /** When the attempt started, in sandbox time. */
  readonly at: Date;
  /** The response status, when a response arrived. Only 2xx counts as delivered; redirects are not followed. */
  readonly status: number | undefined;
  /** Why no response arrived (connection refused, timeout, ...). */
  readonly error: string | undefined;
}

/** One webhook the sandbox sent, is sending, holds back or dropped. */
export interface WebhookDelivery {
  /** `whd_1`, `whd_2`, ... in the order deliveries were created. */
  readonly id: string;
  /** Where it is posted. */
  readonly url: string;
  /** The JSON body. */
  readonly event: SandboxWebhookEvent;
  /**
   * `scheduled` while held back (`late`, `out-of-order`); `pending` while attempts remain;
   * `delivered` after a 2xx; `failed` once every attempt failed; `dropped` when never sent on purpose.
   */
  readonly state: 'scheduled' | 'pending' | 'delivered' | 'failed' | 'dropped';
  /** How it was planned to be delivered. */
  readonly mode: DeliveryMode;
  /** The delivery this one repeats (a redelivery or the second copy of `twice`). */
  readonly redeliveryOf: string | undefined;
  /** Every HTTP attempt so far, oldest first. */
  readonly attempts: readonly WebhookAttempt[];
  /** Set on a forgery (`sandbox.forge`): what was forged. */
  readonly forgery?: ForgeryKind;
  /** A forgery's exact body, which `event` (the event it pretends to be or was made from) does not show. */
  readonly body?: string;
}

/** What makes a delivery a forgery: its kind and the exact text posted. */
export interface ForgedDelivery {
  /** What was forged. */
  readonly forgery: ForgeryKind;
  /** The text posted in place of the event's JSON. */
  readonly body: string;
}

/** Read access to deliveries, ways to wait for them without sleeping, and delivery faults. */
export interface SandboxWebhooks {
  /** Every delivery so far, oldest first. */
  deliveries(): WebhookDelivery[];
  /** Resolves once no delivery is being attempted, including ones started while waiting; held-back ones are not waited for. */
  idle(): Promise<void>;
  /**
   * Resolves with the first delivery, past or future, that matches `predicate`
   * and is finished (`delivered`, `failed` or `dropped`). Rejects after `timeoutMs`.
   */
  waitFor(
    predicate: (delivery: WebhookDelivery) => boolean,
    options?: {
      /** How long to wait, in real ms, at most 2147483647 (the longest timer). @default 5000 */
      timeoutMs?: number;
    },
  ): Promise<WebhookDelivery>;
  /**
   * Sends the body of delivery `id` again to the same URL, as a new delivery.
   * Throws `WalletConfigError` when no delivery has that id.
   * @returns the new delivery as it starts
   */
  redeliver(id: string, plan?: DeliveryPlan): WebhookDelivery;
  /**
   * Applies `plan` to the next `count` webhooks the sandbox sends (of `event` only, when given),
   * e.g. `{ mode: 'drop' }` to lose the next callback.
   */
  planNext(
    plan: DeliveryPlan & {
      /** How many of the next deliveries, a safe integer >= 1. @default 1 */
      count?: number;
      /** Only deliveries of this event type. @default any */
      event?: SandboxWebhookEvent['event'];
    },
  ): void;
}
