import type { ForgeryKind } from '../forge/forgery.js';
import type { DeliveryMode, DeliveryPlan } from '../model/delivery-plan.js';
import type { SandboxWebhookEvent } from '../model/transactions.js';

/**
 * Retry policy of webhook deliveries. By default a delivery that gets no 2xx is tried again on a
 * schedule like a payment service's, over hours of sandbox time (`DEFAULT_WEBHOOK_SCHEDULE_MS`), so
 * `sandbox.clock.advance` (`sandbox advance 1h`) brings the next attempts at once.
 */
export interface WebhookRetryOptions {
  /**
   * Attempts per delivery, the first included; 1 to 20. The last wait of the schedule repeats when
   * there are more attempts than waits.
   * @default the schedule's length + 1 (8); 3 with `backoffMs`
   */
  attempts?: number;
  /**
   * The waits before the 2nd, 3rd, … attempt, in ms of sandbox time (each 0 to 604800000, a week).
   * Not with `backoffMs`.
   * @default [60000, 300000, 1800000, 3600000, 7200000, 14400000, 28800000] (1 min to 8 h)
   */
  schedule?: readonly number[];
  /**
   * A doubling schedule instead: wait this long before the second attempt (0 to 60000 ms), twice as
   * long before each later one. A test setting for quick retries.
   */
  backoffMs?: number;
  /** Time limit of one attempt, 1 to 600000 ms (real time). @default 2000 */
  timeoutMs?: number;
}

/** The retry policy deliveries start with, every value set. */
export interface WebhookRetryPolicy {
  /** Attempts per delivery, the first included. */
  readonly attempts: number;
  /** The wait before each attempt after the first, in ms of sandbox time (`attempts - 1` of them). */
  readonly scheduleMs: readonly number[];
  /** Time limit of one attempt, in real ms. */
  readonly timeoutMs: number;
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
   * `scheduled` while held back (`late`, `out-of-order`) or waiting for its next attempt
   * (`nextAttemptAt`); `pending` while an attempt is on its way;
   * `delivered` after a 2xx; `failed` once every attempt failed; `dropped` when never sent on purpose.
   */
  readonly state: 'scheduled' | 'pending' | 'delivered' | 'failed' | 'dropped';
  /** How it was planned to be delivered. */
  readonly mode: DeliveryMode;
  /** The delivery this one repeats (a redelivery or the second copy of `twice`). */
  readonly redeliveryOf: string | undefined;
  /** Every HTTP attempt so far, oldest first. */
  readonly attempts: readonly WebhookAttempt[];
  /** When the next attempt is due, in sandbox time, while one is waiting; otherwise `undefined`. */
  readonly nextAttemptAt: Date | undefined;
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
  /**
   * Resolves once no delivery is being attempted, including ones started while waiting, and no
   * retry is due within a second; held-back deliveries, and those whose next attempt is further
   * off (the default schedule's), are not waited for: move the clock to bring them.
   */
  idle(): Promise<void>;
  /** The retry policy deliveries start with now. */
  retries(): WebhookRetryPolicy;
  /**
   * Changes the retry policy of deliveries started from now on (those under way keep theirs).
   * Throws `WalletConfigError` naming the field, and changes nothing, for a policy out of bounds.
   * @returns the policy now in force
   * @example
   * sandbox.webhooks.setRetries({ attempts: 4, schedule: [1_000, 60_000, 3_600_000] });
   */
  setRetries(options: WebhookRetryOptions): WebhookRetryPolicy;
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
