import type { TraceScope } from './channel.js';

/**
 * Which path learned a payment's final status and settled it: the payment's own `answer`, a
 * `status` read (`getTransaction`, `waitForTransaction`, a webhook's `verifyWith` read-back), or the
 * `sweeper`.
 */
export type SettlementPath = 'answer' | 'status' | 'sweeper';

/**
 * What the `merchant-wallet:settlement` tracing channel publishes for each settlement run: once a
 * caller claimed a payment whose status is final (one caller across every instance), from `start`
 * (before `onSettled`) to `asyncEnd` (after the settled mark). Node sets `result` before `asyncEnd`.
 * Never carries the body, the user's e-mail or the metadata. A subscriber may set `runInScope` at
 * `start`, so that `onSettled` runs inside its context (see {@link TraceScope}).
 */
export interface WalletSettlementTrace extends TraceScope {
  /** The payment's `reference_id`. */
  readonly referenceId: string;
  /** Which path settles it. */
  readonly path: SettlementPath;
  /** `'deposit'` or `'withdraw'`. */
  readonly endpoint: 'deposit' | 'withdraw';
  /** The final status `onSettled` receives: `completed` or `failed`. */
  readonly status: string | undefined;
  /** When the payment was recorded (ISO 8601): the settlement latency counts from it. */
  readonly recordedAt: string;
  /**
   * Set by Node at `asyncEnd`: whether this run settled it (`onSettled` ran to its end and
   * `settledAt` was written); `false` when `onSettled` failed or the lease ran out first.
   */
  result?: boolean;
}
