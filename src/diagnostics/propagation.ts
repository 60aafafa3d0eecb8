import type { AttemptRequest } from '../transport/attempt.js';
import { readErrorBody } from '../transport/error-body.js';

/**
 * The headers a tracing subscriber may add to an attempt: W3C trace context and baggage, B3, and
 * Jaeger's. An allow-list rather than a deny-list: a subscriber must never be able to replace
 * `x-api-key`, `authorization` or a framing header, whatever names a propagator invents.
 */
const PROPAGATION_HEADER =
  /^(?:traceparent|tracestate|baggage|b3|x-b3-[a-z]+|uber-trace-id|uberctx-[a-z0-9-]+)$/;
const SINGLE_LINE = /^[\t\x20-\x7e]*$/;

/** `request` with the propagation headers of `carrier` added; `request` itself when there are none. */
export function withPropagation(
  request: AttemptRequest,
  carrier: Readonly<Record<string, string>> | undefined,
): AttemptRequest {
  if (carrier === undefined) return request;
  let headers: Record<string, string> | undefined;
  for (const [name, value] of Object.entries(carrier)) {
    const lower = name.toLowerCase();
    if (!PROPAGATION_HEADER.test(lower) || typeof value !== 'string' || !SINGLE_LINE.test(value)) continue;
    // A copy: the request's headers are shared by every call of the client.
    headers ??= { ...request.headers };
    headers[lower] = value;
  }
  return headers === undefined ? request : { ...request, headers };
}

/** The documented error code an error body carries, or `undefined` (not JSON, no code, an unknown one). */
export function errorCodeOf(text: string): string | undefined {
  try {
    const { code } = readErrorBody(JSON.parse(text));
    return code === 'unknown_error' ? undefined : code;
  } catch {
    return undefined;
  }
}
