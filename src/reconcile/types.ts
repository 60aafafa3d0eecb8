import type { WalletError } from '../errors.js';
import type { TransactionResult } from '../schemas/responses.js';

/** Running counts of a reconciliation, given to {@link ReconcileOptions.onProgress}. */
export interface ReconcileProgress {
  /** Results yielded so far, this one included; successes and failures alike. */
  readonly done: number;
  /** How many of `done` carry an `error`. */
  readonly failed: number;
  /** Status reads under way right now. */
  readonly inFlight: number;
}

/**
 * The outcome for one id: its current status, or the error reading it. Discriminate with
 * `result.error === undefined`. A `failed` transaction is a `status`, not an `error`.
 */
export type ReconcileResult =
  | {
      /** The id, as given. */
      readonly transactionId: string;
      /** Its status as the status endpoint answered it. */
      readonly status: TransactionResult;
      /** Absent when the status was read. */
      readonly error?: undefined;
    }
  | {
      /** The id, as given. */
      readonly transactionId: string;
      /** Why its status could not be read (after the client's own retries). */
      readonly error: WalletError;
      /** Absent when the read failed. */
      readonly status?: undefined;
    };
