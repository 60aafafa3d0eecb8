import { WalletAbortError, WalletError } from '../errors.js';
import type { TransactionResult } from '../schemas/responses.js';
import type { TransactionReader } from '../transaction-reader.js';
import type { ReconcileProgress, ReconcileResult } from './types.js';

/** Checked settings of one reconciliation. */
export interface PoolSettings {
  readonly concurrency: number;
  readonly signal: AbortSignal | undefined;
}

/**
 * The moving parts of one reconciliation: pulls ids one at a time, keeps at most `concurrency`
 * reads in flight or finished-but-not-yet-taken, and queues results in completion order.
 * Counting untaken results against the limit is what keeps it lazy: a slow consumer slows the
 * pulling, and memory stays bounded even for an endless source.
 */
export class ReconcilePool {
  readonly #client: TransactionReader;
  readonly #source: Iterator<unknown> | AsyncIterator<unknown>;
  readonly #async: boolean;
  readonly #settings: PoolSettings;
  /** Aborted on the caller's abort or on close; it aborts every read in {@link #reads}. */
  readonly #stop = new AbortController();
  /**
   * One controller per read in flight, so its size is the count in flight. Sharing one signal
   * among all reads would put one abort listener per read on it, and past 10 Node prints a
   * MaxListenersExceededWarning.
   */
  readonly #reads = new Set<AbortController>();
  readonly #ready: ReconcileResult[] = [];
  #pulling = false;
  #sourceDone = false;
  #sourceFailure: { readonly error: unknown } | undefined;
  #closed = false;
  #interrupted = false;
  #done = 0;
  #failed = 0;
  #wake: (() => void) | undefined;

  constructor(
    client: TransactionReader,
    ids: Iterable<unknown> | AsyncIterable<unknown>,
    settings: PoolSettings,
  ) {
    this.#client = client;
    this.#settings = settings;
    const asyncIterable = (ids as AsyncIterable<unknown>)[Symbol.asyncIterator];
    this.#async = typeof asyncIterable === 'function';
    this.#source = this.#async
      ? (ids as AsyncIterable<unknown>)[Symbol.asyncIterator]()
      : (ids as Iterable<unknown>)[Symbol.iterator]();
    this.#stop.signal.addEventListener('abort', () => {
      for (const read of this.#reads) read.abort(this.#stop.signal.reason);
    });
    if (settings.signal?.aborted) this.#stop.abort(settings.signal.reason);
    else settings.signal?.addEventListener('abort', this);
  }

  /** The caller's signal fired: stop every read and wake the consumer to report it. */
  handleEvent(): void {
    this.#stop.abort(this.#settings.signal?.reason);
    this.#notify();
  }

  /** Set by `interrupt()`: the consumer stopped the iteration. */
  get interrupted(): boolean {
    return this.#interrupted;
  }

  /** The consumer called `return()`, possibly while waiting: stop the reads and wake the loop so it can end. */
  interrupt(): void {
    this.#interrupted = true;
    this.#stop.abort();
    this.#notify();
  }

  /** Whether every id was read and every result taken. */
  get exhausted(): boolean {
    return this.#sourceDone && !this.#pulling && this.#reads.size === 0 && this.#ready.length === 0;
  }

  /** Counts after the last result taken. */
  progress(): ReconcileProgress {
    return { done: this.#done, failed: this.#failed, inFlight: this.#reads.size };
  }

  /** Starts reads while there is room. Never throws: a failing source is reported by `take()`. */
  fill(): void {
    while (
      !this.#sourceDone &&
      !this.#pulling &&
      this.#sourceFailure === undefined &&
      !this.#stop.signal.aborted &&
      this.#reads.size + this.#ready.length < this.#settings.concurrency
    ) {
      if (this.#async) {
        this.#pullAsync();
        return;
      }
      let step: IteratorResult<unknown>;
      try {
        step = (this.#source as Iterator<unknown>).next();
      } catch (error) {
        this.#sourceFailure = { error };
        return;
      }
      if (step.done) this.#sourceDone = true;
      else this.#launch(step.value);
    }
  }

  /**
   * The next finished result, or `undefined` when none is ready yet.
   * @throws {WalletAbortError} once the caller's signal aborted, at once, even with results ready.
   * @throws the source's own error when pulling an id failed.
   */
  take(): ReconcileResult | undefined {
    const { signal } = this.#settings;
    if (signal?.aborted) throw new WalletAbortError('status', signal.reason);
    if (this.#sourceFailure !== undefined) throw this.#sourceFailure.error;
    const result = this.#ready.shift();
    if (result === undefined) return undefined;
    this.#done++;
    if (result.error !== undefined) this.#failed++;
    return result;
  }

  /** Resolves on the next completion, pull or abort. */
  changed(): Promise<void> {
    return new Promise((resolve) => {
      this.#wake = resolve;
    });
  }

  /**
   * Stops pulling, aborts the reads in flight (their outcomes are still observed, then dropped)
   * and closes the source if it was not finished. A source busy with a pull is not awaited,
   * since an async generator would queue `return()` behind that pull.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#stop.abort();
    this.#settings.signal?.removeEventListener('abort', this);
    this.#ready.length = 0;
    if (this.#sourceDone || this.#sourceFailure !== undefined) return;
    this.#sourceDone = true;
    try {
      const closing = this.#source.return?.();
      if (this.#pulling) Promise.resolve(closing).catch(ignore);
      else await closing;
    } catch {
      // The reconciliation is over either way; a source that fails to close has nothing to add.
    }
  }

  #pullAsync(): void {
    this.#pulling = true;
    let pulled: Promise<IteratorResult<unknown>>;
    try {
      pulled = Promise.resolve((this.#source as AsyncIterator<unknown>).next());
    } catch (error) {
      pulled = Promise.reject(error);
    }
    pulled.then(
      (step) => {
        this.#pulling = false;
        if (this.#closed) return;
        if (step.done) this.#sourceDone = true;
        else this.#launch(step.value);
        this.fill();
        this.#notify();
      },
      (error: unknown) => {
        this.#pulling = false;
        if (this.#closed) return;
        this.#sourceFailure = { error };
        this.#notify();
      },
    );
  }

  #launch(id: unknown): void {
    const transactionId = typeof id === 'string' ? id : String(id);
    const read = new AbortController();
    this.#reads.add(read);
    let request: Promise<TransactionResult>;
    try {
      // The id goes to the client as given, so a bad one fails validation there, for that id only.
      request = Promise.resolve(this.#client.getTransaction(id as string, { signal: read.signal }));
    } catch (error) {
      request = Promise.reject(error);
    }
    request.then(
      (status) => this.#settle(read, { transactionId, status }),
      (error: unknown) => this.#settle(read, { transactionId, error: asWalletError(error, transactionId) }),
    );
  }

  #settle(read: AbortController, result: ReconcileResult): void {
    this.#reads.delete(read);
    if (this.#closed) return;
    this.#ready.push(result);
    this.#notify();
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}

function asWalletError(error: unknown, transactionId: string): WalletError {
  if (error instanceof WalletError) return error;
  const detail = error instanceof Error ? `: ${error.message}` : '';
  return new WalletError(`Reading the status of transaction "${transactionId}" failed${detail}`, {
    cause: error,
  });
}

function ignore(): void {}
