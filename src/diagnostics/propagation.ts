import type { AttemptRequest } from '../transport/attempt.js';
import { readErrorBody } from '../transport/error-body.js';
import { parseLoosely } from '../transport/read-answer.js';

/**
 * `request` with the trace-context headers of `carrier` (W3C `traceparent`, `tracestate` and
 * `baggage`) added. Only those names: no subscriber can replace `x-api-key`, `authorization` or a
 * framing header. Their values are checked by the transport (Node and `fetch` refuse line breaks).
 */
export function withPropagation(request: AttemptRequest, carrier: Record<string, string> | undefined) {
  let headers: Record<string, string> | undefined;
  for (const name in carrier) {
    if (!/^(traceparent|tracestate|baggage)$/.test(name)) continue;
    // A copy: the request's headers are shared by every call of the client.
    headers ??= { ...request.headers };
    headers[name] = `${carrier[name]}`;
  }
  return headers ? { ...request, headers } : request;
}

/** The documented error code an error body carries, or `undefined` (not JSON, no code, an unknown one). */
export function errorCodeOf(text: string): string | undefined {
  const { code } = readErrorBody(parseLoosely(text));
  return code === 'unknown_error' ? undefined : code;
}
