import { WalletConfigError } from '../../errors.js';
import { checkLimit, type SandboxLimitName } from '../model/bounds.js';
import type { VirtualClock } from '../model/clock.js';
import { checkPlan, type DeliveryPlan } from '../model/delivery-plan.js';
import type { SandboxWebhookEvent } from '../model/transactions.js';
import { type MutableDelivery, snapshot } from './webhook-delivery.js';
import { postWebhook } from './webhook-post.js';
import { IDLE_RETRY_MS, retryPolicy, type WaitingRetry } from './webhook-retry.js';
import type {
  ForgedDelivery,
  SandboxWebhooks,
  WebhookAttempt,
  WebhookDelivery,
  WebhookRetryOptions,
  WebhookRetryPolicy,
} from './webhook-types.js';
import { waitUntilFound } from './webhook-wait.js';

interface QueuedPlan {
  plan: Required<DeliveryPlan>;
  remaining: number;
  event: SandboxWebhookEvent['event'] | undefined;
}

/** Called after every HTTP attempt of a delivery, e.g. to print it. */
export type AttemptListener = (delivery: WebhookDelivery, attempt: WebhookAttempt, number: number) => void;
/** Told when a plan drops a delivery (`until` undefined) or holds it back until `until` at the latest. @internal */
export type HoldListener = (delivery: WebhookDelivery, until: Date | undefined) => void;

/** `value`, or `fallback` when absent, checked against row `limit` of `SANDBOX_LIMITS`. */
function bounded(value: unknown, fallback: number, field: string, limit: SandboxLimitName): number {
  return value === undefined ? fallback : checkLimit(limit, value, field);
}

/**
 * Posts webhook bodies over real HTTP with retries, recording every attempt, and applies
 * delivery plans (twice, late, out of order, drop) on the sandbox clock. @internal
 */
export class WebhookDispatcher implements SandboxWebhooks {
  #all: MutableDelivery[] = [];
  /** Deliveries ever started; ids come from it so they keep counting across `reset`, like transaction ids. */
  #started = 0;
  #plans: QueuedPlan[] = [];
  /** Out-of-order deliveries waiting for the next other delivery to finish. */
  #held = new Map<MutableDelivery, () => void>();
  readonly #inFlight = new Set<Promise<unknown>>();
  readonly #listeners = new Set<() => void>();
  readonly #abort = new AbortController();
  readonly #waiting = new Set<WaitingRetry>();
  #retry: WebhookRetryPolicy;
  readonly #clock: VirtualClock;
  readonly #onAttempt: AttemptListener;
  readonly #onHold: HoldListener;

  constructor(
    options: WebhookRetryOptions,
    clock: VirtualClock,
    onAttempt: AttemptListener,
    onHold: HoldListener = () => {},
  ) {
    this.#clock = clock;
    this.#onAttempt = onAttempt;
    this.#onHold = onHold;
    this.#retry = retryPolicy(options, 'options.webhooks');
  }

  retries(): WebhookRetryPolicy {
    return { ...this.#retry, scheduleMs: [...this.#retry.scheduleMs] };
  }

  setRetries(options: WebhookRetryOptions): WebhookRetryPolicy {
    this.#retry = retryPolicy(options, 'retries');
    return this.retries();
  }

  /**
   * Starts a delivery under `plan`, else the next queued plan, else at once.
   * The promise settles when it is delivered, failed for good or dropped.
   */
  send(
    url: string,
    event: SandboxWebhookEvent,
    plan?: DeliveryPlan,
    forged?: ForgedDelivery,
  ): Promise<WebhookDelivery> {
    const chosen = plan === undefined ? this.#takePlan(event) : checkPlan(plan, 'plan');
    return this.#start(url, event, chosen, undefined, forged);
  }

  deliveries(): WebhookDelivery[] {
    return this.#all.map(snapshot);
  }

  redeliver(id: string, plan: DeliveryPlan = { mode: 'deliver' }): WebhookDelivery {
    const original = this.#all.find((d) => d.id === id);
    if (!original) throw new WalletConfigError('id', `names no webhook delivery (${String(id)})`);
    const index = this.#all.length;
    const forged = original.forgery &&
      original.body !== undefined && { forgery: original.forgery, body: original.body };
    void this.#start(original.url, original.event, checkPlan(plan, 'plan'), original.id, forged || undefined);
    // The new delivery is the first one #start records (a `twice` plan records its copy after it).
    return snapshot(this.#all[index] as MutableDelivery);
  }

  planNext(plan: DeliveryPlan & { count?: number; event?: SandboxWebhookEvent['event'] }): void {
    const checked = checkPlan(plan, 'plan');
    const count = bounded(plan.count, 1, 'plan.count', 'count');
    if (plan.event !== undefined && plan.event !== 'transaction' && plan.event !== 'user_authorized') {
      throw new WalletConfigError('plan.event', "must be 'transaction' or 'user_authorized'");
    }
    this.#plans.push({ plan: checked, remaining: count, event: plan.event });
  }

  async idle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
    // Let the `.then` of the last delivery run, so listeners and state agree.
    await Promise.resolve();
  }

  waitFor(predicate: (delivery: WebhookDelivery) => boolean, options: { timeoutMs?: number } = {}) {
    if (typeof predicate !== 'function') throw new WalletConfigError('predicate', 'must be a function');
    const timeoutMs = bounded(options.timeoutMs, 5000, 'options.timeoutMs', 'waitTimeoutMs');
    const finished = (d: MutableDelivery) => d.state !== 'pending' && d.state !== 'scheduled';
    const find = () => this.#all.filter(finished).map(snapshot).find(predicate);
    return waitUntilFound(find, this.#listeners, timeoutMs);
  }

  /**
   * Forgets every delivery and plan; held deliveries are never sent. Attempts in flight finish unrecorded.
   * Ids keep counting, so a delivery id printed before never names a different delivery after.
   */
  reset(): void {
    this.#all = [];
    this.#plans = [];
    this.#held.clear();
    this.#stopWaiting();
  }

  /** Stops retries and aborts attempts in flight. */
  close(): void {
    this.#abort.abort();
    this.#held.clear();
    this.#stopWaiting();
  }

  /** Ends every delivery waiting for a retry as failed: its wait is cancelled, not run. */
  #stopWaiting(): void {
    const waiting = [...this.#waiting];
    this.#waiting.clear();
    for (const retry of waiting) {
      retry.cancel();
      retry.fail();
    }
  }

  #takePlan(event: SandboxWebhookEvent): Required<DeliveryPlan> {
    const queued = this.#plans.find((p) => p.event === undefined || p.event === event.event);
    if (!queued) return { mode: 'deliver', delayMs: 0 };
    if (--queued.remaining === 0) this.#plans = this.#plans.filter((p) => p !== queued);
    return queued.plan;
  }

  #start(
    url: string,
    event: SandboxWebhookEvent,
    plan: Required<DeliveryPlan>,
    redeliveryOf: string | undefined,
    forged?: ForgedDelivery,
  ): Promise<WebhookDelivery> {
    const delivery: MutableDelivery = {
      id: `whd_${++this.#started}`,
      url,
      event,
      state: plan.mode === 'drop' ? 'dropped' : 'pending',
      mode: plan.mode,
      redeliveryOf,
      attempts: [],
      nextAttemptAt: undefined,
      ...forged,
    };
    this.#all.push(delivery);
    if (plan.mode === 'drop') {
      this.#onHold(snapshot(delivery), undefined);
      this.#notify();
      return Promise.resolve(snapshot(delivery));
    }
    if (plan.mode === 'twice') {
      void this.#start(url, event, { mode: 'deliver', delayMs: 0 }, delivery.id, forged);
    }
    if (plan.mode === 'deliver' || plan.mode === 'twice') return this.#track(delivery);
    delivery.state = 'scheduled';
    return new Promise((resolve) => {
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        cancel();
        this.#held.delete(delivery);
        delivery.state = 'pending';
        void this.#track(delivery).then(resolve);
      };
      const cancel = this.#clock.schedule(plan.delayMs, release);
      if (plan.mode === 'out-of-order') this.#held.set(delivery, release);
      this.#onHold(snapshot(delivery), new Date(this.#clock.now().getTime() + plan.delayMs));
    });
  }

  /**
   * Runs the attempts of `delivery` under the policy in force when it starts. Each attempt is in
   * flight for `idle()`; between two, the delivery is `scheduled` on the sandbox clock, so moving
   * the clock brings the next attempt at once. Resolves once it is delivered or failed for good.
   */
  #track(delivery: MutableDelivery): Promise<WebhookDelivery> {
    const policy = this.#retry;
    return new Promise((resolve) => {
      const finish = () => {
        // A finished delivery releases every out-of-order one held before it, which then arrives after it.
        for (const [held, release] of this.#held) if (held !== delivery) release();
        this.#notify();
        resolve(snapshot(delivery));
      };
      const attempt = (number: number) => {
        const run = this.#attempt(delivery, policy.timeoutMs);
        this.#inFlight.add(run);
        void run.then((made) => {
          this.#inFlight.delete(run);
          const last = made.ok || number >= policy.attempts || this.#abort.signal.aborted;
          if (!made.ok && last) delivery.state = 'failed';
          if (!last) {
            this.#retryLater(delivery, policy.scheduleMs[number - 1] ?? 0, () => attempt(number + 1), finish);
          }
          // Reported once the delivery's next step is known, so the report says when the next attempt is due.
          this.#onAttempt(snapshot(delivery), made.attempt, number);
          if (last) finish();
        });
      };
      attempt(1);
    });
  }

  /** Waits `waitMs` of sandbox time before `next`, the delivery `scheduled` meanwhile. */
  #retryLater(delivery: MutableDelivery, waitMs: number, next: () => void, finish: () => void): void {
    let wake: (() => void) | undefined;
    const soon = waitMs <= IDLE_RETRY_MS ? new Promise<void>((resolve) => (wake = resolve)) : undefined;
    if (soon !== undefined) this.#inFlight.add(soon);
    const settle = () => {
      this.#waiting.delete(retry);
      delivery.nextAttemptAt = undefined;
      if (soon !== undefined) this.#inFlight.delete(soon);
      wake?.();
    };
    const retry: WaitingRetry = {
      cancel: this.#clock.schedule(waitMs, () => {
        settle();
        delivery.state = 'pending';
        next();
      }),
      fail: () => {
        settle();
        delivery.state = 'failed';
        finish();
      },
    };
    this.#waiting.add(retry);
    delivery.state = 'scheduled';
    delivery.nextAttemptAt = new Date(this.#clock.now().getTime() + waitMs);
    this.#notify();
  }

  #notify(): void {
    for (const listener of this.#listeners) listener();
  }

  /** One HTTP attempt, recorded; answers it and whether it delivered. */
  async #attempt(
    delivery: MutableDelivery,
    timeoutMs: number,
  ): Promise<{ attempt: WebhookAttempt; ok: boolean }> {
    const attempt = await postWebhook(delivery.url, delivery.body ?? delivery.event, this.#clock.now(), {
      signal: this.#abort.signal,
      timeoutMs,
    });
    delivery.attempts.push(attempt);
    const ok = attempt.status !== undefined && attempt.status >= 200 && attempt.status < 300;
    if (ok) delivery.state = 'delivered';
    return { attempt, ok };
  }
}
