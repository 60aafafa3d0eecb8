import { type WalletIssue, WalletRequestValidationError } from '../errors.js';
import { isAbortSignal, MAX_TIMER_MS } from '../limits.js';
import { type OptionKeys, unknownOptionKeys } from '../option-keys.js';
import type { TransactionResult } from '../schemas/responses.js';
import { eventSourceKind, type TransactionEventSource } from './event-source.js';

/**
 * Options of `waitForTransaction` and `watchTransaction`.
 *
 * @example
 * const controller = new AbortController();
 * const final = await waitForTransaction(wallet, deposit.transaction_id, {
 *   timeoutMs: 120_000,
 *   signal: controller.signal,
 *   onStatus: (result) => log.info('deposit status', result.transaction_status),
 * });
 */
export interface WaitForTransactionOptions {
  /**
   * Stops polling at once; the wait rejects with `WalletAbortError` (endpoint `status`, the
   * signal's reason as `cause`) and no further request is made.
   */
  signal?: AbortSignal | undefined;
  /**
   * Ceiling of the first delay between reads. Each delay is drawn uniformly from
   * `[0, min(maxDelayMs, initialDelayMs * 2^n)]` (exponential backoff with full jitter), so many
   * waits started together do not poll together. The first read is never delayed.
   * @default 1_000
   */
  initialDelayMs?: number | undefined;
  /**
   * Largest ceiling of a delay between reads.
   * @default 15_000, or `initialDelayMs` when that is larger
   */
  maxDelayMs?: number | undefined;
  /**
   * Overall deadline, from the first read. When it passes, the wait rejects with
   * `WalletPollTimeoutError` carrying the last status read and, if the last read failed, its error as `cause`.
   * A read still in flight at the deadline is aborted.
   * @default 300_000
   */
  timeoutMs?: number | undefined;
  /**
   * How long after the start a `transaction_not_found` answer is taken as "not visible yet" and
   * retried; after it, `transaction_not_found` ends the wait with that `WalletApiError`.
   * `0` makes it fatal from the first read.
   * @default 30_000
   */
  notFoundGraceMs?: number | undefined;
  /**
   * Time limit of each attempt of one status read, cut to the time left before `timeoutMs`.
   * @default 30_000
   */
  requestTimeoutMs?: number | undefined;
  /**
   * Called with the result each time the status differs from the previous one read, the final
   * status included. If it throws, polling stops and the wait rejects with that error.
   */
  onStatus?: ((result: TransactionResult) => void) | undefined;
  /**
   * Where transaction events arrive (see {@link TransactionEventSource}), so the wait ends as soon
   * as the transaction's webhook does instead of at the next poll. An event verified by a webhook
   * handler made with `verifyWith` ends it with the status that handler read back; any other event
   * about this transaction makes the wait read the status at once, and only that read can end it.
   * Polling with backoff goes on underneath, so a webhook that never comes costs only time.
   * Nothing stays subscribed once the wait ends.
   *
   * @example
   * const transactionEvents = createTransactionEvents();
   * const handler = createWebhookHandler({ verifyWith: wallet, onTransaction: transactionEvents.publish });
   * const final = await wallet.waitForTransaction(deposit.transaction_id, { events: transactionEvents });
   */
  events?: TransactionEventSource | undefined;
}

/** Options of `watchTransaction`: the same as {@link WaitForTransactionOptions}. */
export type WatchTransactionOptions = WaitForTransactionOptions;

/** Checked options with defaults applied. */
export interface PollSettings {
  readonly transactionId: string;
  readonly signal: AbortSignal | undefined;
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  readonly timeoutMs: number;
  readonly notFoundGraceMs: number;
  readonly requestTimeoutMs: number;
  readonly onStatus: ((result: TransactionResult) => void) | undefined;
  readonly events: TransactionEventSource | undefined;
}

/** Every option of {@link WaitForTransactionOptions}: adding one is a line here plus its check. */
const POLL_OPTION_KEYS: OptionKeys<WaitForTransactionOptions> = {
  signal: true,
  initialDelayMs: true,
  maxDelayMs: true,
  timeoutMs: true,
  notFoundGraceMs: true,
  requestTimeoutMs: true,
  onStatus: true,
  events: true,
};

/** Checks the id and options, naming every bad one; throws `WalletRequestValidationError`. */
export function readPollOptions(transactionId: unknown, options: unknown): PollSettings {
  const issues: WalletIssue[] = [];
  if (typeof transactionId !== 'string' || transactionId.trim() === '') {
    issues.push({
      path: 'transactionId',
      message: 'must be a non-empty string (the id returned at creation)',
    });
  }
  if (options === undefined) options = {};
  if (typeof options !== 'object' || options === null) {
    issues.push({ path: 'options', message: 'must be an object' });
    throw new WalletRequestValidationError(issues, 'Invalid poll arguments');
  }
  const given = options as Record<string, unknown>;
  for (const key of unknownOptionKeys(given, POLL_OPTION_KEYS)) {
    issues.push({ path: `options.${key}`, message: 'is not a known option' });
  }
  const initialDelayMs = readMs(issues, given, 'initialDelayMs', 1_000, 1);
  const maxDelayMs = readMs(issues, given, 'maxDelayMs', Math.max(15_000, initialDelayMs), 1);
  const timeoutMs = readMs(issues, given, 'timeoutMs', 300_000, 1);
  const notFoundGraceMs = readMs(issues, given, 'notFoundGraceMs', 30_000, 0);
  const requestTimeoutMs = readMs(issues, given, 'requestTimeoutMs', 30_000, 1);
  if (maxDelayMs < initialDelayMs) {
    issues.push({ path: 'options.maxDelayMs', message: 'must not be smaller than initialDelayMs' });
  }
  const { signal, onStatus, events } = given;
  if (signal !== undefined && !isAbortSignal(signal)) {
    issues.push({ path: 'options.signal', message: 'must be an AbortSignal' });
  }
  if (onStatus !== undefined && typeof onStatus !== 'function') {
    issues.push({ path: 'options.onStatus', message: 'must be a function' });
  }
  if (events !== undefined && eventSourceKind(events) === undefined) {
    issues.push({
      path: 'options.events',
      message: 'must be an EventTarget, an AsyncIterable or an object with a subscribe method',
    });
  }
  if (issues.length > 0) throw new WalletRequestValidationError(issues, 'Invalid poll arguments');
  return {
    transactionId: transactionId as string,
    signal: signal as AbortSignal | undefined,
    initialDelayMs,
    maxDelayMs,
    timeoutMs,
    notFoundGraceMs,
    requestTimeoutMs,
    onStatus: onStatus as PollSettings['onStatus'],
    events: events as TransactionEventSource | undefined,
  };
}

function readMs(
  issues: WalletIssue[],
  options: Record<string, unknown>,
  name: string,
  fallback: number,
  min: number,
): number {
  const value = options[name];
  if (value === undefined) return fallback;
  if (typeof value === 'number' && value >= min && value <= MAX_TIMER_MS) return value;
  issues.push({
    path: `options.${name}`,
    message: `must be a number of milliseconds from ${min} to ${MAX_TIMER_MS}`,
  });
  return fallback;
}
