/**
 * The traced paths: loaded by `tracing.ts` on the first call made while anyone listens on the SDK's
 * tracing channels, so a client nobody traces never loads (or ships, in a browser bundle) this code.
 */
import type { TraceChannel, TraceScope } from '../diagnostics/channel.js';
import type { WalletEndpoint } from '../error-codes.js';
import {
  type AttemptOutcome,
  type AttemptReceiver,
  type AttemptRequest,
  requestUrl,
  type Transport,
} from './attempt.js';
import type { readErrorBody } from './error-body.js';
import type { parseLoosely } from './read-answer.js';
import type { WalletRequestTrace } from './request-trace.js';
import type { requestIdOf } from './response.js';

/**
 * How an answer is read, handed over by the client rather than imported: the client has these
 * already, and a module shared by this chunk and the client would be split out of the client's
 * bundle into a chunk of its own, which gzips worse than the code this chunk saves.
 */
export interface AnswerReaders {
  readonly requestIdOf: typeof requestIdOf;
  readonly readErrorBody: typeof readErrorBody;
  readonly parseLoosely: typeof parseLoosely;
}

/** Runs `work` traced on `channel`, inside the scope a subscriber set on `context` at `start`, if any. */
export function tracePromise<C extends TraceScope, T>(
  channel: TraceChannel,
  context: C,
  work: () => Promise<T>,
): Promise<T> {
  return channel.tracePromise(() => {
    // Read once, after `start`: the subscriber sets it there.
    const run = context.runInScope;
    return run === undefined ? work() : run(work);
  }, context);
}

const PROPAGATION_HEADER = /^(traceparent|tracestate|baggage)$/;

/**
 * `request` with the trace-context headers of `carrier` (W3C `traceparent`, `tracestate` and
 * `baggage`) added. Only those names: no subscriber can replace `x-api-key`, `authorization` or a
 * framing header. Their values are checked by the transport (Node and `fetch` refuse line breaks).
 */
export function withPropagation(request: AttemptRequest, carrier: Record<string, string> | undefined) {
  let headers: Record<string, string> | undefined;
  for (const name in carrier) {
    if (!PROPAGATION_HEADER.test(name)) continue;
    // A copy: the request's headers are shared by every call of the client.
    headers ??= { ...request.headers };
    headers[name] = `${carrier[name]}`;
  }
  return headers ? { ...request, headers } : request;
}

/** The documented error code an error body carries, or `undefined` (not JSON, no code, an unknown one). */
export function errorCodeOf(text: string, readers: AnswerReaders): string | undefined {
  const { code } = readers.readErrorBody(readers.parseLoosely(text));
  return code === 'unknown_error' ? undefined : code;
}

/**
 * Sends one attempt through `transport`, traced on `channel` (`merchant-wallet:request`), and hands
 * its outcome to `receiver` once `asyncEnd` was published. The traced function resolves nothing, so
 * the published context never holds the raw outcome (which has the body). Three promises per
 * attempt: the exchange's (made of the transport's `start` when it has one, filling in the trace),
 * the channel's, and the one that hands the outcome over, in the caller's async context rather
 * than the subscriber's scope (a retry's span is the payment's child, not the last attempt's).
 */
export function traceAttempt(
  channel: TraceChannel,
  request: AttemptRequest,
  call: { readonly endpoint: WalletEndpoint; readonly referenceId?: string | undefined },
  attempt: number,
  secrets: readonly string[],
  transport: Transport,
  readers: AnswerReaders,
  receiver: AttemptReceiver,
): void {
  const href = requestUrl(request);
  const trace: WalletRequestTrace = {
    endpoint: call.endpoint,
    method: request.method,
    href,
    // A new copy per read, and none unless read: a subscriber changing it must not change where the
    // request goes, and parsing a URL per attempt is a cost the OpenTelemetry entry does not need.
    get url() {
      return new URL(href);
    },
    referenceId: call.referenceId,
    attempt,
  };
  let outcome!: AttemptOutcome;
  const arrived = (answered: AttemptOutcome) => {
    outcome = answered;
    trace.outcome = answered.kind;
    if (answered.kind === 'response' || answered.kind === 'unreadable') {
      trace.status = answered.status;
      trace.requestId = readers.requestIdOf(answered.headers, secrets);
      if (answered.kind === 'response' && answered.status >= 400)
        trace.errorCode = errorCodeOf(answered.text, readers);
    }
  };
  const { start } = transport;
  tracePromise(channel, trace, () => {
    const sent = withPropagation(request, trace.propagation);
    if (start === undefined) return transport(sent).then(arrived);
    return new Promise<void>((resolve, failed) =>
      start(sent, {
        arrived(answered) {
          arrived(answered);
          resolve();
        },
        failed,
      }),
    );
  }).then(
    () => receiver.arrived(outcome),
    (error: unknown) => receiver.failed(error),
  );
}
