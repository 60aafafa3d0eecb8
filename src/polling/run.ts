import { WalletAbortError, type WalletError } from '../errors.js';
import { expectStatusOf } from '../schemas/answer-match.js';
import type { TransactionResult } from '../schemas/responses.js';
import type { TransactionReader } from '../transaction-reader.js';
import { backoffDelay } from '../transport/backoff.js';
import { WalletPollTimeoutError } from './errors.js';
import { type EventFollower, followEvents } from './event-source.js';
import type { PollSettings } from './options.js';
import { isRetryableReadError, requestedDelayMs, unvalidatedStatus } from './retry.js';
import { followSignal, unfollowSignal } from './signal.js';

/** Why a run stopped before handing out a final status. */
type StopCause = 'aborted' | 'deadline' | 'closed';

/**
 * The polling loop, as a small state machine: read → (new status? hand it out) → pause → read …
 *
 * It is written with callbacks and timers rather than `async`/`await` because 10,000 waits may
 * run at once within 2 KB each: a suspended async function or generator keeps its frame, its
 * promises and their closures alive (~1 KB measured), and an idle `AbortController` costs
 * ~0.8 KB in Node. A sleeping run holds this object, one timer, and a place in its signal's
 * follower set. For the same reason it pauses with its own timer instead of `transport/sleep`,
 * which needs a signal to be interrupted.
 */
export class PollRun implements EventFollower {
  readonly #client: TransactionReader;
  readonly #settings: PollSettings;
  /** `waitForTransaction` is answered only with a final status; `watchTransaction` with each new one. */
  readonly #untilFinal: boolean;
  #startedAt = 0;
  #deadline = 0;
  #reads = 0;
  /** The backoff pause, or the deadline of the read in flight; never both. */
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** The read in flight; a read that is no longer this one is ignored when it settles. */
  #read: AbortController | undefined;
  #stopped: StopCause | undefined;
  /** Nothing more to hand out: a final status or an error was delivered, or the consumer closed. */
  #done = false;
  #shown: string | undefined;
  #lastStatus: string | undefined;
  #lastError: unknown;
  /** An event asked for a read while one was in flight or nobody was waiting: read without pausing. */
  #woken = false;
  /** A verified final status that arrived while nobody was waiting; the next `advance()` delivers it. */
  #settled: TransactionResult | undefined;
  #unfollowEvents: (() => void) | undefined;
  #resolve: ((result: TransactionResult | undefined) => void) | undefined;
  #reject: ((error: unknown) => void) | undefined;

  constructor(client: TransactionReader, settings: PollSettings, untilFinal: boolean) {
    this.#client = client;
    this.#settings = settings;
    this.#untilFinal = untilFinal;
  }

  /**
   * Starts the clock and follows the caller's signal and event source; throws when the signal is
   * already aborted or the source refuses the subscription.
   */
  start(): void {
    const { signal, timeoutMs, events, transactionId } = this.#settings;
    if (signal?.aborted) throw new WalletAbortError('status', signal.reason);
    this.#startedAt = Date.now();
    this.#deadline = this.#startedAt + timeoutMs;
    // Followed before the first read, so an event that lands while it is in flight is not missed.
    if (events) this.#unfollowEvents = followEvents(events, transactionId, this);
    if (signal) followSignal(signal, this);
  }

  /**
   * Resolves with the next status to hand out (a new one, or only the final one when waiting),
   * or `undefined` once there is nothing more. The first call reads at once; later ones pause first.
   */
  advance(): Promise<TransactionResult | undefined> {
    if (this.#done) return Promise.resolve(undefined);
    if (this.#stopped !== undefined) {
      // Stopped while the consumer was between two calls: deliver the reason now.
      this.#done = true;
      return this.#stopped === 'closed' ? Promise.resolve(undefined) : Promise.reject(this.#stopError());
    }
    return new Promise((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
      const settled = this.#settled;
      this.#settled = undefined;
      if (settled) this.#onResult(settled);
      else if (this.#reads === 0) this.#readOnce();
      else this.#pause();
    });
  }

  /** A verified final status from the event source: ends the run without another read. @internal */
  settle(result: TransactionResult): void {
    if (this.#stopped !== undefined || this.#done) return;
    if (this.#resolve === undefined) {
      this.#settled = result;
      return;
    }
    // The read in flight, if any, is no longer wanted; its outcome is ignored when it comes.
    this.#read?.abort();
    this.#onResult(result);
  }

  /** An unverified event from the event source: read now, or right after the read in flight. @internal */
  wake(): void {
    if (this.#stopped !== undefined || this.#done) return;
    const pausing = this.#read === undefined && this.#timer !== undefined;
    if (!pausing) {
      this.#woken = true;
      return;
    }
    clearTimeout(this.#timer);
    this.resume();
  }

  /** Stops the run: ends a pause, aborts the read in flight, answers a pending `advance()`. First cause wins. */
  stop(cause: StopCause): void {
    if (this.#stopped !== undefined || this.#done) return;
    this.#stopped = cause;
    this.#read?.abort(cause === 'aborted' ? this.#settings.signal?.reason : undefined);
    this.#read = undefined;
    this.#dispose();
    if (this.#resolve === undefined) return;
    if (cause === 'closed') this.#finish(undefined);
    else this.#fail(this.#stopError());
  }

  /** Called by the pause timer. @internal */
  resume(): void {
    this.#timer = undefined;
    if (Date.now() >= this.#deadline) this.stop('deadline');
    else this.#readOnce();
  }

  #readOnce(): void {
    const remaining = Math.max(1, Math.ceil(this.#deadline - Date.now()));
    const controller = new AbortController();
    this.#read = controller;
    this.#reads++;
    // The client's own retries could outlast the deadline; this timer aborts the whole read there.
    this.#timer = setTimeout(stopAtDeadline, remaining, this);
    const { transactionId } = this.#settings;
    let request: Promise<TransactionResult>;
    try {
      request = Promise.resolve(
        this.#client.getTransaction(transactionId, {
          signal: controller.signal,
          timeoutMs: Math.min(this.#settings.requestTimeoutMs, remaining),
        }),
      );
    } catch (error) {
      request = Promise.reject(error);
    }
    // Both outcomes are always observed, so an abandoned read never becomes an unhandled rejection.
    // The id is checked here too: any reader may be given, not only the client that checks it itself.
    request
      .then((result) => expectStatusOf(transactionId, result))
      .then(
        (result) => {
          if (this.#read === controller) this.#onResult(result);
        },
        (error: unknown) => {
          if (this.#read === controller) this.#onError(error);
        },
      );
  }

  #onResult(result: TransactionResult): void {
    this.#endRead();
    const status = result.transaction_status;
    this.#lastStatus = status;
    this.#lastError = undefined;
    const isNew = status !== this.#shown;
    if (isNew) {
      this.#shown = status;
      try {
        this.#settings.onStatus?.(result);
      } catch (error) {
        this.#fail(error);
        return;
      }
      // The callback may have aborted the caller's signal.
      if (this.#stopped !== undefined) return;
    }
    // Only the two documented final values end the wait; an unknown value never counts as done.
    if (status === 'completed' || status === 'failed') this.#finish(result);
    else if (isNew && !this.#untilFinal) this.#answer(result);
    else this.#pause();
  }

  #onError(error: unknown): void {
    this.#endRead();
    this.#lastError = error;
    this.#lastStatus = unvalidatedStatus(error, this.#settings.transactionId) ?? this.#lastStatus;
    const withinGrace = Date.now() - this.#startedAt < this.#settings.notFoundGraceMs;
    if (isRetryableReadError(error, withinGrace)) this.#pause();
    else this.#fail(error);
  }

  /**
   * Full jitter under a ceiling that doubles per read, so many waits started together spread out;
   * never shorter than a 429's or 503's `Retry-After`, never past the deadline.
   */
  #pause(): void {
    const remaining = this.#deadline - Date.now();
    if (remaining <= 0) {
      this.stop('deadline');
      return;
    }
    if (this.#woken) {
      this.#woken = false;
      this.#readOnce();
      return;
    }
    const { initialDelayMs, maxDelayMs } = this.#settings;
    // Past 2^40 the ceiling is maxDelayMs anyway; capping the exponent keeps the product finite.
    const exponent = Math.min(this.#reads - 1, 40);
    const backoff = backoffDelay(exponent, { baseDelayMs: initialDelayMs, maxDelayMs });
    const delay = Math.max(backoff, requestedDelayMs(this.#lastError));
    this.#timer = setTimeout(resumeRun, Math.min(delay, remaining), this);
  }

  #endRead(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#read = undefined;
  }

  /** Hands a non-final status to a pending `advance()`; the run stays alive for the next call. */
  #answer(result: TransactionResult | undefined): void {
    const resolve = this.#resolve;
    this.#resolve = undefined;
    this.#reject = undefined;
    resolve?.(result);
  }

  #finish(result: TransactionResult | undefined): void {
    this.#done = true;
    this.#dispose();
    this.#answer(result);
  }

  #fail(error: unknown): void {
    this.#done = true;
    this.#dispose();
    const reject = this.#reject;
    this.#resolve = undefined;
    this.#reject = undefined;
    reject?.(error);
  }

  #stopError(): WalletError {
    const { signal, transactionId, timeoutMs } = this.#settings;
    if (this.#stopped === 'aborted') return new WalletAbortError('status', signal?.reason);
    return new WalletPollTimeoutError({
      transactionId,
      lastStatus: this.#lastStatus,
      timeoutMs,
      cause: this.#lastError,
    });
  }

  /** Leaves no timer and no listener behind. */
  #dispose(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#settings.signal) unfollowSignal(this.#settings.signal, this);
    const unfollow = this.#unfollowEvents;
    this.#unfollowEvents = undefined;
    try {
      unfollow?.();
    } catch {
      // The wait has its answer; a source that fails to unsubscribe cannot change it.
    }
  }
}

// Timer callbacks are module functions given the run as an argument: no closure per timer.
function resumeRun(run: PollRun): void {
  run.resume();
}

function stopAtDeadline(run: PollRun): void {
  run.stop('deadline');
}
