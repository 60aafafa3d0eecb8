import type { TraceScope } from '../diagnostics/channel.js';
import type { WalletEndpoint } from '../error-codes.js';
import type { AttemptOutcome } from './attempt.js';

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
  /**
   * The request URL (base URL and path; no query, no credentials), as a string: what `url` parses,
   * for a subscriber that needs no `URL` object.
   */
  readonly href: string;
  /**
   * A copy of the request URL, parsed when read (each read is a new copy, so changing it changes
   * nothing): `server.address` and `server.port` come from it.
   */
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
   * the attempt to send. Only the W3C ones are taken (`traceparent`, `tracestate` and `baggage`; the
   * transport refuses a value with a line break); any other name is ignored, so no subscriber can
   * replace the credentials or the framing headers.
   */
  propagation?: Record<string, string> | undefined;
}
