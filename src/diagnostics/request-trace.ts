import type { WalletEndpoint } from '../error-codes.js';
import {
  type AttemptOutcome,
  type AttemptReceiver,
  type AttemptRequest,
  requestUrl,
  type Transport,
} from '../transport/attempt.js';
import { requestIdOf } from '../transport/response.js';
import { type TraceScope, traced, tracingChannel } from './channel.js';
import { errorCodeOf, withPropagation } from './propagation.js';

/**
 * What the `merchant-wallet:request` tracing channel publishes for each HTTP attempt (a retry is a
 * new attempt with its own start and end). The fields after `attempt` are set by `asyncEnd`. Never
 * carries a header, a body, the API key or a user token.
 *
 * A subscriber may set two fields at `start`: `propagation`, trace-context headers to send with the
 * attempt, and `runInScope`, the async context the attempt runs in (see {@link TraceScope}).
 */
export interface WalletRequestTrace extends TraceScope {
  /** The API operation. */
  readonly endpoint: WalletEndpoint;
  /** The HTTP method. */
  readonly method: 'GET' | 'POST';
  /** A copy of the request URL (base URL and path; no query, no credentials): `server.address` and `server.port` come from it. */
  readonly url: URL;
  /** The `reference_id` of a deposit or withdrawal; `undefined` for reads. */
  readonly referenceId: string | undefined;
  /** 1 for the first attempt; `attempt - 1` is OpenTelemetry's `http.request.resend_count`. */
  readonly attempt: number;
  /** The HTTP status, when the API answered. */
  status?: number;
  /**
   * How the attempt ended: `response` (any status); `unreadable`, an answer (with its status) whose body
   * could not be read; or `network`, `timeout` or `aborted` without one.
   * A failed attempt is a result here, not an `error` event: the transport never throws. OpenTelemetry's
   * `error.type` is the status for a 4xx/5xx, else this value when it is not `response`.
   */
  outcome?: AttemptOutcome['kind'];
  /** The `x-request-id` the API answered with. */
  requestId?: string | undefined;
  /**
   * For an answer of status 400 or more: the documented error code its body carried, such as
   * `insufficient_balance`; `undefined` when it carried none (a gateway's page, an unknown code).
   */
  errorCode?: string | undefined;
  /**
   * Trace-context headers a subscriber sets at `start` (an OpenTelemetry propagator's carrier) for
   * the attempt to send. Only propagation headers are taken (`traceparent`, `tracestate`, `baggage`,
   * B3 and Jaeger ones, with single-line values); any other name is ignored, so no subscriber can
   * replace the credentials or the framing headers.
   */
  propagation?: Record<string, string> | undefined;
}

/** One channel for every client, looked up when the module loads. */
const requestChannel = tracingChannel('merchant-wallet:request');

/**
 * Sends one attempt through `transport`, traced on `merchant-wallet:request` when anyone listens;
 * otherwise it only checks `hasSubscribers`. The traced function resolves nothing, so the published
 * context never holds the raw outcome (which has the body).
 */
export function traceAttempt(
  request: AttemptRequest,
  call: { readonly endpoint: WalletEndpoint; readonly referenceId?: string | undefined },
  attempt: number,
  secrets: readonly string[],
  transport: Transport,
): Promise<AttemptOutcome> {
  const channel = requestChannel;
  if (!channel?.hasSubscribers) return transport(request);
  const trace: WalletRequestTrace = {
    endpoint: call.endpoint,
    method: request.method,
    // A copy: a subscriber changing it must not change where the request goes.
    url: new URL(requestUrl(request)),
    referenceId: call.referenceId,
    attempt,
  };
  let outcome!: AttemptOutcome;
  return traced(channel, trace, async () => {
    outcome = await transport(withPropagation(request, trace.propagation));
    trace.outcome = outcome.kind;
    if (outcome.kind === 'response' || outcome.kind === 'unreadable') {
      trace.status = outcome.status;
      trace.requestId = requestIdOf(outcome.headers, secrets);
      if (outcome.kind === 'response' && outcome.status >= 400) trace.errorCode = errorCodeOf(outcome.text);
    }
  }).then(() => outcome);
}

/**
 * Starts one attempt through `transport` and hands its outcome to `receiver`: straight through the
 * transport's `start` when nobody listens on `merchant-wallet:request`, else by {@link traceAttempt}.
 */
export function startAttempt(
  request: AttemptRequest,
  call: { readonly endpoint: WalletEndpoint; readonly referenceId?: string | undefined },
  attempt: number,
  secrets: readonly string[],
  transport: Transport,
  receiver: AttemptReceiver,
): void {
  if (transport.start && !requestChannel?.hasSubscribers) transport.start(request, receiver);
  else {
    traceAttempt(request, call, attempt, secrets, transport).then(
      (outcome) => receiver.arrived(outcome),
      (error: unknown) => receiver.failed(error),
    );
  }
}
