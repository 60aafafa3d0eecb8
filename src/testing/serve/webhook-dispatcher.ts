import { WalletConfigError } from '../../errors.js';
import type { SandboxWebhookEvent } from '../model/transactions.js';

/** Retry policy of webhook deliveries. */
export interface WebhookRetryOptions {
  /** Attempts per delivery, the first included. @default 3 */
  attempts?: number;
  /** Wait before the second attempt; each later wait doubles. @default 50 */
  backoffMs?: number;
  /** Time limit of one attempt. @default 2000 */
  timeoutMs?: number;
}

/** One HTTP attempt of a delivery. */
export interface WebhookAttempt {
  readonly at: Date;
  /** The response status, when a response arrived. Only 2xx counts as delivered; redirects are not followed. */
  readonly status: number | undefined;
  /** Why no response arrived (connection refused, timeout, ...). */
  readonly error: string | undefined;
}

/** One webhook the sandbox sent or is sending. */
export interface WebhookDelivery {
  readonly id: string;
  readonly url: string;
  readonly event: SandboxWebhookEvent;
  /** `pending` while attempts remain; `failed` once every attempt failed. */
  readonly state: 'pending' | 'delivered' | 'failed';
  readonly attempts: readonly WebhookAttempt[];
}

/** Read access to deliveries, and ways to wait for them without sleeping. */
export interface SandboxWebhooks {
  /** Every delivery so far, oldest first. */
  deliveries(): WebhookDelivery[];
  /** Resolves once no delivery is pending, including ones started while waiting. */
  idle(): Promise<void>;
  /**
   * Resolves with the first delivery, past or future, that matches `predicate`
   * and is no longer pending. Rejects after `timeoutMs`.
   */
  waitFor(
    predicate: (delivery: WebhookDelivery) => boolean,
    options?: { timeoutMs?: number },
  ): Promise<WebhookDelivery>;
}

interface MutableDelivery {
  id: string;
  url: string;
  event: SandboxWebhookEvent;
  state: WebhookDelivery['state'];
  attempts: WebhookAttempt[];
}

function snapshot(d: MutableDelivery): WebhookDelivery {
  return { id: d.id, url: d.url, event: structuredClone(d.event), state: d.state, attempts: [...d.attempts] };
}

function positiveInt(value: number | undefined, fallback: number, field: string, min: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min)
    throw new WalletConfigError(field, `must be an integer >= ${min}`);
  return value;
}

/** Posts webhook bodies over real HTTP with retries, recording every attempt. @internal */
export class WebhookDispatcher implements SandboxWebhooks {
  readonly #all: MutableDelivery[] = [];
  readonly #inFlight = new Set<Promise<void>>();
  readonly #listeners = new Set<() => void>();
  readonly #abort = new AbortController();
  readonly #attempts: number;
  readonly #backoffMs: number;
  readonly #timeoutMs: number;

  constructor(options: WebhookRetryOptions = {}) {
    this.#attempts = positiveInt(options.attempts, 3, 'options.webhooks.attempts', 1);
    this.#backoffMs = positiveInt(options.backoffMs, 50, 'options.webhooks.backoffMs', 0);
    this.#timeoutMs = positiveInt(options.timeoutMs, 2000, 'options.webhooks.timeoutMs', 1);
  }

  /** Starts a delivery; the promise settles when it is delivered or has failed for good. */
  send(url: string, event: SandboxWebhookEvent): Promise<WebhookDelivery> {
    const delivery: MutableDelivery = {
      id: `whd_${this.#all.length + 1}`,
      url,
      event,
      state: 'pending',
      attempts: [],
    };
    this.#all.push(delivery);
    const run = this.#run(delivery);
    this.#inFlight.add(run);
    return run.then(() => {
      this.#inFlight.delete(run);
      for (const listener of this.#listeners) listener();
      return snapshot(delivery);
    });
  }

  deliveries(): WebhookDelivery[] {
    return this.#all.map(snapshot);
  }

  async idle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
    // Let the `.then` of the last delivery run, so listeners and state agree.
    await Promise.resolve();
  }

  waitFor(predicate: (delivery: WebhookDelivery) => boolean, options: { timeoutMs?: number } = {}) {
    if (typeof predicate !== 'function') throw new WalletConfigError('predicate', 'must be a function');
    const timeoutMs = positiveInt(options.timeoutMs, 5000, 'options.timeoutMs', 0);
    const find = () => this.#all.map(snapshot).find((d) => d.state !== 'pending' && predicate(d));
    return new Promise<WebhookDelivery>((resolve, reject) => {
      const found = find();
      if (found) return resolve(found);
      const listener = () => {
        const match = find();
        if (!match) return;
        cleanup();
        resolve(match);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`no matching webhook delivery finished within ${timeoutMs} ms`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.#listeners.delete(listener);
      };
      this.#listeners.add(listener);
    });
  }

  /** Stops retries and aborts attempts in flight. */
  close(): void {
    this.#abort.abort();
  }

  async #run(delivery: MutableDelivery): Promise<void> {
    for (let attempt = 1; attempt <= this.#attempts; attempt++) {
      if (attempt > 1 && !(await this.#wait(this.#backoffMs * 2 ** (attempt - 2)))) break;
      const at = new Date();
      try {
        const response = await fetch(delivery.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': 'merchant-wallet-sandbox' },
          body: JSON.stringify(delivery.event),
          redirect: 'manual',
          signal: AbortSignal.any([this.#abort.signal, AbortSignal.timeout(this.#timeoutMs)]),
        });
        // The body is drained so the connection can be reused or closed cleanly.
        await response.arrayBuffer().catch(() => undefined);
        delivery.attempts.push({ at, status: response.status, error: undefined });
        if (response.status >= 200 && response.status < 300) {
          delivery.state = 'delivered';
          return;
        }
      } catch (error) {
        delivery.attempts.push({ at, status: undefined, error: describeError(error) });
      }
      if (this.#abort.signal.aborted) break;
    }
    delivery.state = 'failed';
  }

  /** Waits `ms`, or returns false at once when the dispatcher is closed. */
  #wait(ms: number): Promise<boolean> {
    const signal = this.#abort.signal;
    if (signal.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        resolve(true);
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        resolve(false);
      };
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.name}: ${error.message}${cause}`;
}
