import { type WalletIssue, WalletRequestValidationError } from '../errors.js';
import { isAbortSignal } from '../limits.js';
import { type OptionKeys, unknownOptionKeys } from '../option-keys.js';
import type { TransactionReader } from '../transaction-reader.js';
import { type PoolSettings, ReconcilePool } from './pool.js';
import type { ReconcileProgress, ReconcileResult } from './types.js';

export type { ReconcileProgress, ReconcileResult } from './types.js';

/**
 * Options of {@link reconcile}.
 *
 * @example
 * const options: ReconcileOptions = {
 *   concurrency: 16,
 *   signal: AbortSignal.timeout(10 * 60_000),
 *   onProgress: ({ done, failed, inFlight }) => metrics.gauge('reconcile', { done, failed, inFlight }),
 * };
 */
export interface ReconcileOptions {
  /**
   * Most status reads in flight at once, an integer from 1 to 1000. Results read but not yet
   * taken by your loop count too, so a slow loop slows the reading instead of piling up results.
   * @default 8
   */
  concurrency?: number | undefined;
  /**
   * Stops the reconciliation at once: no more ids are pulled, reads in flight are aborted and
   * their results dropped, and the iteration rejects with `WalletAbortError` (endpoint `status`,
   * the signal's reason as `cause`) even if results were waiting. Ids whose result you did not
   * receive are not reconciled.
   */
  signal?: AbortSignal | undefined;
  /** Called with the running counts just before each result is yielded. If it throws, the iteration rejects with that error. */
  onProgress?: ((progress: ReconcileProgress) => void) | undefined;
}

/**
 * Reads the current status of many transactions, at most `concurrency` at a time, yielding one
 * result per id as each read completes (completion order, not input order). Ids are pulled
 * lazily, so `ids` may be an endless or async source such as a database cursor. A failed read
 * is a result with `error` (after the client's own retries); it never stops the others.
 *
 * Leaving the loop early, or calling `return()` (even while a `next()` is waiting), stops
 * pulling, aborts the reads in flight (their outcomes are observed and dropped, never unhandled)
 * and calls the source's `return()`. Nothing is read until the first `next()`, and every
 * failure, argument checks included, is a rejection of `next()`, never a synchronous throw.
 *
 * @param client a `WalletClient`, or any object with its `getTransaction` method.
 * @throws {WalletRequestValidationError} for a bad client, `ids` or option, naming it.
 * @throws {WalletAbortError} when `options.signal` aborts.
 * @throws whatever the `ids` source itself throws; reads in flight are then aborted.
 *
 * @example
 * for await (const result of reconcile(wallet, db.pendingTransactionIds(), { concurrency: 16 })) {
 *   if (result.error) log.warn('could not read', result.transactionId, result.error.message);
 *   else await db.saveStatus(result.transactionId, result.status.transaction_status);
 * }
 */
export function reconcile(
  client: TransactionReader,
  ids: Iterable<string> | AsyncIterable<string>,
  options?: ReconcileOptions,
): AsyncIterableIterator<ReconcileResult> {
  return new Reconciliation(client, ids, options);
}

/** Lets `return()` end a `next()` that is waiting for a read, which a bare async generator would queue behind it. */
class Reconciliation implements AsyncIterableIterator<ReconcileResult> {
  readonly #steps: AsyncGenerator<ReconcileResult, undefined>;
  #pool: ReconcilePool | undefined;
  #returned = false;

  constructor(
    client: TransactionReader,
    ids: Iterable<string> | AsyncIterable<string>,
    options: ReconcileOptions | undefined,
  ) {
    this.#steps = reconcileSteps(client, ids, options, this);
  }

  attach(pool: ReconcilePool): void {
    this.#pool = pool;
    if (this.#returned) pool.interrupt();
  }

  next(): Promise<IteratorResult<ReconcileResult, undefined>> {
    return this.#steps.next();
  }

  return(): Promise<IteratorResult<ReconcileResult, undefined>> {
    this.#returned = true;
    this.#pool?.interrupt();
    return this.#steps.return(undefined);
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<ReconcileResult> {
    return this;
  }
}

async function* reconcileSteps(
  client: TransactionReader,
  ids: Iterable<string> | AsyncIterable<string>,
  options: ReconcileOptions | undefined,
  owner: Reconciliation,
): AsyncGenerator<ReconcileResult, undefined> {
  const settings = readReconcileOptions(client, ids, options);
  const pool = new ReconcilePool(client, ids, settings);
  owner.attach(pool);
  try {
    while (!pool.interrupted) {
      pool.fill();
      const result = pool.take();
      if (result !== undefined) {
        options?.onProgress?.(pool.progress());
        yield result;
      } else if (pool.exhausted) {
        return;
      } else {
        await pool.changed();
      }
    }
  } finally {
    await pool.close();
  }
}

/** Every option of {@link ReconcileOptions}: adding one is a line here plus its check. */
const RECONCILE_OPTION_KEYS: OptionKeys<ReconcileOptions> = {
  concurrency: true,
  signal: true,
  onProgress: true,
};

function readReconcileOptions(client: unknown, ids: unknown, options: unknown): PoolSettings {
  const issues: WalletIssue[] = [];
  if (typeof (client as TransactionReader | null)?.getTransaction !== 'function') {
    issues.push({ path: 'client', message: 'must have a getTransaction method' });
  }
  if (!isIterable(ids)) {
    issues.push({ path: 'ids', message: 'must be an iterable or async iterable of transaction ids' });
  }
  if (options === undefined) options = {};
  if (typeof options !== 'object' || options === null) {
    issues.push({ path: 'options', message: 'must be an object' });
    throw new WalletRequestValidationError(issues, 'Invalid reconcile arguments');
  }
  for (const key of unknownOptionKeys(options, RECONCILE_OPTION_KEYS)) {
    issues.push({ path: `options.${key}`, message: 'is not a known option' });
  }
  const { concurrency = 8, signal, onProgress } = options as Record<string, unknown>;
  if (!Number.isInteger(concurrency) || (concurrency as number) < 1 || (concurrency as number) > 1000) {
    issues.push({ path: 'options.concurrency', message: 'must be an integer from 1 to 1000' });
  }
  if (signal !== undefined && !isAbortSignal(signal)) {
    issues.push({ path: 'options.signal', message: 'must be an AbortSignal' });
  }
  if (onProgress !== undefined && typeof onProgress !== 'function') {
    issues.push({ path: 'options.onProgress', message: 'must be a function' });
  }
  if (issues.length > 0) throw new WalletRequestValidationError(issues, 'Invalid reconcile arguments');
  return { concurrency: concurrency as number, signal: signal as AbortSignal | undefined };
}

/** A string is iterable too, but reconciling its characters is never what was meant. */
function isIterable(value: unknown): value is Iterable<unknown> | AsyncIterable<unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<Iterable<unknown> & AsyncIterable<unknown>>;
  return (
    typeof candidate[Symbol.asyncIterator] === 'function' || typeof candidate[Symbol.iterator] === 'function'
  );
}
