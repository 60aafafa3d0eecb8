import { WalletApiError, WalletJournalError } from '../errors.js';
import { outcomeOf } from '../journal/outcome.js';
import { inScope, type TraceScope, tracingChannel } from './channel.js';

/**
 * What the `merchant-wallet:payment` tracing channel publishes for each deposit or withdrawal call,
 * from `start` (before its journal record) to `asyncEnd` (its answer, after every attempt and the
 * journal's outcome write). The HTTP attempts of the call are traced inside it, on
 * `merchant-wallet:request`. Never carries the body, the user's e-mail or token, or the API key.
 * A subscriber may set `runInScope` at `start` (see {@link TraceScope}).
 */
export interface WalletPaymentTrace extends TraceScope {
  /** `'deposit'` or `'withdraw'`. */
  readonly endpoint: 'deposit' | 'withdraw';
  /** The payment's `reference_id`. */
  readonly referenceId: string;
  /** Whether this call re-sends a payment whose outcome was unknown (`resolveOutcome`, `recover()`, the sweeper). */
  readonly resend: boolean;
  /**
   * How the call ended, as the journal records it: `applied` (the service accepted the payment, now
   * or through an earlier send), `refused` (not applied: refused, or never sent) or `unknown` (it
   * may have been applied; `WalletOutcomeUnknownError`, or a journal failure that may send it later).
   */
  outcome?: 'applied' | 'refused' | 'unknown';
  /** For a call that failed: the API's error code (`insufficient_balance`), else the error's class name. */
  errorType?: string;
  /** The service's transaction id, when the call resolved. */
  transactionId?: string;
  /** The transaction's status in the answer (`pending`, `completed`, `failed`), when the call resolved. */
  transactionStatus?: string;
}

/** One channel for every client, looked up when the module loads. */
const paymentChannel = tracingChannel('merchant-wallet:payment');

/** The error type a trace reports for `error`: the API's code, else the class name. */
export function errorTypeOf(error: unknown): string {
  if (error instanceof WalletApiError) return error.code;
  return error instanceof Error ? error.name : typeof error;
}

/** How a failed payment call ended, by the journal's own rule (`outcomeOf`). */
function failedOutcome(error: unknown, resend: boolean): 'applied' | 'refused' | 'unknown' {
  if (error instanceof WalletJournalError) return error.mayBeSentLater ? 'unknown' : 'refused';
  const { state } = outcomeOf(error, resend);
  return state === 'refused' ? 'refused' : state === 'accepted' ? 'applied' : 'unknown';
}

/**
 * Runs one payment call, traced on `merchant-wallet:payment` when anyone listens; otherwise it only
 * checks `hasSubscribers`. The traced function resolves nothing, so the context never holds the result.
 */
export function tracePayment<
  T extends { readonly transaction_id: string; readonly transaction_status: string },
>(
  call: { readonly endpoint: 'deposit' | 'withdraw'; readonly referenceId: string; readonly resend: boolean },
  run: () => Promise<T>,
): Promise<T> {
  const channel = paymentChannel;
  if (!channel?.hasSubscribers) return run();
  const trace: WalletPaymentTrace = {
    endpoint: call.endpoint,
    referenceId: call.referenceId,
    resend: call.resend,
  };
  let result!: T;
  const traced = channel.tracePromise(async () => {
    try {
      result = await inScope(trace, run);
    } catch (error) {
      trace.outcome = failedOutcome(error, call.resend);
      trace.errorType = errorTypeOf(error);
      throw error;
    }
    trace.outcome = 'applied';
    trace.transactionId = result.transaction_id;
    trace.transactionStatus = result.transaction_status;
  }, trace);
  return traced.then(() => result);
}
