import type { SettledBy } from '../journal/types.js';
import type { TraceScope } from './channel.js';

/**
 * Which path learned a payment's final status and settled it: the journal's {@link SettledBy}.
 * @deprecated Use `SettledBy`, the one name of the settling paths: the settlement trace's `path`
 * and the journal's `settledBy` are the same values. Removed in the next minor release.
 */
export type SettlementPath = SettledBy;

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
  /**
   * Which path learned the final status (or the refusal) and settles it, as the journal records it in
   * `settledBy`: `answer`, `status_read`, `webhook`, `resolve_outcome`, `recover` or `sweeper`.
   */
  readonly path: SettledBy;
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
