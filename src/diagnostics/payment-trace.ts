import type { TraceScope } from './channel.js';

/**
 * What the `merchant-wallet:payment` tracing channel publishes for each deposit or withdrawal call,
 * from `start` (before its journal record) to `asyncEnd` (after every attempt and the journal's
 * outcome write); its HTTP attempts are traced inside it, on `merchant-wallet:request`. As for any
 * `tracePromise`, Node sets `result` (what the call resolved with) or `error` (what it rejected
 * with) before `asyncEnd`. Never carries the body, the user's e-mail or token, or the API key.
 * A subscriber may set `runInScope` at `start` (see {@link TraceScope}).
 */
export interface WalletPaymentTrace extends TraceScope {
  /** `'deposit'` or `'withdraw'`. */
  readonly endpoint: 'deposit' | 'withdraw';
  /** The payment's `reference_id`. */
  readonly referenceId: string;
  /** Whether this call re-sends a payment whose outcome was unknown (`resolveOutcome`, `recover()`, the sweeper). */
  readonly resend: boolean;
  /** Set by Node once the call resolved: its result (`transaction_id`, `transaction_status`, …). */
  result?: {
    /** The service's transaction id. */
    readonly transaction_id: string;
    /** The transaction's status in the answer. */
    readonly transaction_status: string;
  };
  /** Set by Node once the call rejected: the error thrown. */
  error?: unknown;
}
