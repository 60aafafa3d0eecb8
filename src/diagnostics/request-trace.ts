import type { WalletEndpoint } from '../error-codes.js';
import type { AttemptOutcome, AttemptRequest } from '../transport/attempt.js';
import { requestIdOf } from '../transport/response.js';
import { traced, tracingChannel } from './channel.js';

/**
 * What the `merchant-wallet:request` tracing channel publishes for each HTTP attempt (a retry is a
 * new attempt with its own start and end). The fields after `attempt` are set by `asyncEnd`. Never
 * carries a header, a body, the API key or a user token.
 */
export interface WalletRequestTrace {
  /** The API operation. */
  readonly endpoint: WalletEndpoint;
  /** The HTTP method. */
  readonly method: 'GET' | 'POST';
  /** The request URL (base URL and path; no query, no credentials): `server.address` and `server.port` come from it. */
  readonly url: URL;
  /** The `reference_id` of a deposit or withdrawal; `undefined` for reads. */
  readonly referenceId: string | undefined;
  /** 1 for the first attempt; `attempt - 1` is OpenTelemetry's `http.request.resend_count`. */
  readonly attempt: number;
  /** The HTTP status, when the API answered. */
  status?: number;
  /** How the attempt ended. A failed attempt is a result here, not an `error` event: the transport never throws. */
  outcome?: 'success' | 'http_error' | 'network_error' | 'timeout' | 'aborted';
  /** OpenTelemetry's `error.type`: the status code for a 4xx/5xx, else `network_error`, `timeout` or `aborted`; unset on success. */
  errorType?: string | undefined;
  /** The `x-request-id` the API answered with. */
  requestId?: string | undefined;
}

/** One channel for every client, created when the module loads. */
const requestChannel = tracingChannel('merchant-wallet:request');

/** The identity of one attempt, as the trace publishes it. */
export interface TracedAttempt {
  readonly endpoint: WalletEndpoint;
  readonly referenceId: string | undefined;
  readonly attempt: number;
  readonly secrets: readonly string[];
}

/** Sends one attempt through `exchange`, traced on `merchant-wallet:request` when anyone listens. */
export function traceAttempt(
  request: AttemptRequest,
  attempt: TracedAttempt,
  exchange: () => Promise<AttemptOutcome>,
): Promise<AttemptOutcome> {
  return traced(
    requestChannel,
    (): WalletRequestTrace => ({
      endpoint: attempt.endpoint,
      method: request.method,
      url: request.url,
      referenceId: attempt.referenceId,
      attempt: attempt.attempt,
    }),
    exchange,
    (trace, outcome) => settleTrace(trace, outcome, attempt.secrets),
  );
}

function settleTrace(trace: WalletRequestTrace, outcome: AttemptOutcome, secrets: readonly string[]): void {
  if (outcome.kind !== 'response') {
    trace.outcome = outcome.kind === 'network' ? 'network_error' : outcome.kind;
    trace.errorType = trace.outcome;
    return;
  }
  const success = outcome.status >= 200 && outcome.status < 300;
  Object.assign(trace, {
    status: outcome.status,
    requestId: requestIdOf(outcome.headers, secrets),
    outcome: success ? 'success' : 'http_error',
    errorType: success ? undefined : String(outcome.status),
  });
}
