import { WalletRequestValidationError } from '../errors.js';
import type { TransactionResult } from '../schemas/responses.js';
import type { TransactionReader } from '../transaction-reader.js';
import type { TransactionEventSource } from './event-source.js';
import { readPollOptions, type WaitForTransactionOptions, type WatchTransactionOptions } from './options.js';
import { PollRun } from './run.js';

export type { WaitForTransactionOptions, WatchTransactionOptions } from './options.js';

/**
 * Polls the status endpoint until the transaction is final and resolves with that result.
 * A `failed` transaction is a resolved value (read `failure_reason`), not a rejection.
 *
 * The first read is immediate; later reads wait with exponential backoff and full jitter.
 * Connection failures, timeouts, 408/425/429/5xx, `internal_server_error`, a 2xx body of an
 * unexpected shape, and `transaction_not_found` within `notFoundGraceMs` of the start are
 * retried until `timeoutMs`. With `options.events` it also ends as soon as a verified event for
 * the transaction arrives, and reads at once on an unverified one (see {@link TransactionEventSource}).
 * Any other error, such as `transaction_access_forbidden`,
 * `invalid_api_key` or `missing_api_key`, rejects at once with that error. No timer or listener
 * is left behind once the promise settles. Never throws synchronously.
 *
 * @param client a `WalletClient`, or any object with its `getTransaction` method.
 * @throws {WalletRequestValidationError} (as a rejection) for a bad id, client or option, naming it.
 * @throws {WalletPollTimeoutError} when `timeoutMs` passes; carries `lastStatus` and the last error as `cause`.
 * @throws {WalletAbortError} when `options.signal` aborts; its `cause` is the signal's reason.
 * @throws {WalletApiError} for an error that waiting cannot fix.
 *
 * @example
 * const result = await waitForTransaction(wallet, deposit.transaction_id, { timeoutMs: 120_000 });
 * if (result.transaction_status === 'completed') await orders.markPaid(result.reference_id);
 * else await orders.markFailed(result.reference_id, result.failure_reason);
 */
export function waitForTransaction(
  client: TransactionReader,
  transactionId: string,
  options?: WaitForTransactionOptions,
): Promise<TransactionResult> {
  try {
    // A run in wait mode answers only with a final status, never `undefined`.
    return startRun(client, transactionId, options, true).advance() as Promise<TransactionResult>;
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * The same polling loop as {@link waitForTransaction}, as an async iterator: it yields the
 * first status read and then each status that differs from the previous one, and ends after
 * the final one (`completed` or `failed`). Nothing is requested until the first `next()`.
 * Leaving a `for await` loop, or calling `return()`, stops polling at once (even during a
 * pause or a read) and clears its timers. Errors are those of {@link waitForTransaction},
 * raised by `next()`; the deadline keeps running while your loop body runs.
 *
 * @example
 * for await (const result of watchTransaction(wallet, deposit.transaction_id)) {
 *   await orders.recordStatus(result.reference_id, result.transaction_status);
 * }
 */
export function watchTransaction(
  client: TransactionReader,
  transactionId: string,
  options?: WatchTransactionOptions,
): AsyncIterableIterator<TransactionResult> {
  return new TransactionWatch(client, transactionId, options);
}

class TransactionWatch implements AsyncIterableIterator<TransactionResult> {
  readonly #client: TransactionReader;
  readonly #transactionId: string;
  readonly #options: WatchTransactionOptions | undefined;
  #run: PollRun | undefined;
  #closed = false;
  /** Calls of `next()` run one after another, as an async generator's do. */
  #tail: Promise<unknown> = Promise.resolve();

  constructor(
    client: TransactionReader,
    transactionId: string,
    options: WatchTransactionOptions | undefined,
  ) {
    this.#client = client;
    this.#transactionId = transactionId;
    this.#options = options;
  }

  next(): Promise<IteratorResult<TransactionResult, undefined>> {
    const step = this.#tail.then(() => this.#step());
    this.#tail = step.catch(ignore);
    return step;
  }

  return(): Promise<IteratorResult<TransactionResult, undefined>> {
    this.#closed = true;
    this.#run?.stop('closed');
    return Promise.resolve({ done: true, value: undefined });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<TransactionResult> {
    return this;
  }

  async #step(): Promise<IteratorResult<TransactionResult, undefined>> {
    if (this.#closed) return { done: true, value: undefined };
    if (this.#run === undefined) {
      try {
        this.#run = startRun(this.#client, this.#transactionId, this.#options, false);
      } catch (error) {
        this.#closed = true;
        throw error;
      }
    }
    const result = await this.#run.advance();
    return result === undefined ? { done: true, value: undefined } : { done: false, value: result };
  }
}

/** Checks everything before the first request, so a bad argument never reaches the network. */
function startRun(
  client: TransactionReader,
  transactionId: string,
  options: WaitForTransactionOptions | undefined,
  untilFinal: boolean,
): PollRun {
  const settings = readPollOptions(transactionId, options);
  if (typeof client !== 'object' || client === null || typeof client.getTransaction !== 'function') {
    throw new WalletRequestValidationError([
      { path: 'client', message: 'must have a getTransaction method' },
    ]);
  }
  const run = new PollRun(client, settings, untilFinal);
  run.start();
  return run;
}

function ignore(): void {}
