import { WalletConfigError } from '../errors.js';
import type { SweepReport } from '../settlement/sweep.js';
import type { WebhookHandler } from '../webhooks/handler.js';
import { retryLater } from '../webhooks/responses.js';

/**
 * Where a wallet is in its life: `created` (built, not started), `starting`, `ready` (taking
 * payments; the readiness signal), `failed` (a start step threw; `close()` still works), `closing`, `closed`.
 */
export type WalletState = 'created' | 'starting' | 'ready' | 'failed' | 'closing' | 'closed';

/** What `start()` did. */
export interface WalletStartReport {
  /**
   * The recovery pass: what a crash (or a lost answer) left, by the restart rule: `unknown` intents
   * re-sent at once, `sending` ones once nobody can still be sending them, final payments nobody
   * settled settled, pending ones read when due.
   */
  readonly recovered: SweepReport;
  /** Whether a sweeper runs until `close()`. */
  readonly sweeping: boolean;
}

/** The steps `start()` and `close()` run, in their order. */
export interface LifecycleSteps {
  /** Brings the stores to the current schema. */
  readonly migrate: () => Promise<void>;
  /** Resolves what a crash left open. */
  readonly recover: () => Promise<SweepReport>;
  /** Runs the sweeper until `signal` aborts; `undefined` when there is none. */
  readonly supervise: ((signal: AbortSignal) => Promise<void>) | undefined;
  /** Stops the client once everything in flight is done. */
  readonly closeClient: () => Promise<void>;
}

/**
 * The order of a wallet's life, in one place: the webhook intake opens once the stores are
 * migrated, recovery runs once it is open (a re-sent payment's webhook has somewhere to land), the
 * sweeper after, and only then is the wallet `ready`. Closing shuts the intake, stops the sweeper
 * after its current pass, waits for deliveries in progress, then stops the client.
 */
export class Lifecycle {
  #state: WalletState = 'created';
  #intake = false;
  readonly #deliveries = new Set<Promise<Response>>();
  readonly #stop = new AbortController();
  #sweeper: Promise<void> | undefined;
  #starting: Promise<WalletStartReport> | undefined;
  #closing: Promise<void> | undefined;

  readonly #steps: LifecycleSteps;

  constructor(steps: LifecycleSteps) {
    this.#steps = steps;
  }

  /** Where the wallet is. */
  get state(): WalletState {
    return this.#state;
  }

  /**
   * `handler` behind the intake: a delivery before the stores are ready, or after `close()` began,
   * is answered 503 with `Retry-After`, so the service delivers it again (never lost, never 200).
   */
  gate(handler: WebhookHandler): WebhookHandler {
    return (request) => {
      if (!this.#intake && request.method === 'POST') {
        return Promise.resolve(
          retryLater(503, this.#state === 'closing' || this.#state === 'closed' ? 'closing' : 'starting', {
            'retry-after': '1',
          }),
        );
      }
      const delivery = handler(request);
      this.#deliveries.add(delivery);
      const done = () => this.#deliveries.delete(delivery);
      delivery.then(done, done);
      return delivery;
    };
  }

  /** Runs the start steps once; later calls answer the same promise. */
  start(): Promise<WalletStartReport> {
    if (this.#closing !== undefined) {
      return Promise.reject(
        new WalletConfigError('start', 'the wallet was closed: create another one to start again'),
      );
    }
    this.#starting ??= this.#run();
    return this.#starting;
  }

  async #run(): Promise<WalletStartReport> {
    this.#state = 'starting';
    try {
      await this.#steps.migrate();
      this.#intake = true;
      const recovered = await this.#steps.recover();
      const { supervise } = this.#steps;
      this.#sweeper = supervise?.(this.#stop.signal);
      this.#state = 'ready';
      return { recovered, sweeping: supervise !== undefined };
    } catch (error) {
      this.#state = 'failed';
      this.#intake = false;
      throw error;
    }
  }

  /** Runs the close steps once; later calls answer the same promise. */
  close(): Promise<void> {
    this.#closing ??= this.#shut();
    return this.#closing;
  }

  async #shut(): Promise<void> {
    await this.#starting?.catch(() => undefined);
    this.#state = 'closing';
    this.#intake = false;
    this.#stop.abort();
    await this.#sweeper?.catch(() => undefined);
    await Promise.allSettled([...this.#deliveries]);
    await this.#steps.closeClient();
    this.#state = 'closed';
  }
}
