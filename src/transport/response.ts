import type { ResponseHeaders } from './attempt.js';
import { redactSecrets } from './redact.js';

/** The HTTP exchange behind a result, as `.withResponse()` gives it. */
export interface WalletResponse {
  /** HTTP status of the answer. */
  readonly status: number;
  /**
   * The answer's headers (names are case-insensitive), with any secret of the call they echo (the
   * API key, the user token) redacted, as everywhere else.
   */
  readonly headers: ResponseHeaders;
  /** The `x-request-id` the API answered with, to quote to support; `undefined` when absent. */
  readonly requestId: string | undefined;
  /** Attempts made: 1 when the first one succeeded. */
  readonly attempts: number;
  /** Milliseconds from the first attempt to the answer, retries and backoff waits included. */
  readonly durationMs: number;
}

/** What `.withResponse()` resolves with: the same data `await` gives, and the exchange behind it. */
export interface WithResponse<T> {
  /** The validated result, as the plain `await` resolves. */
  readonly data: T;
  /** Status, headers, request id, attempts and duration of the answer. */
  readonly response: WalletResponse;
}

/** What a successful call keeps of its answer: its {@link WalletResponse}, built each time it is read. */
export interface AnsweredCall {
  readonly response: WalletResponse;
}

/**
 * Where a call leaves the exchange behind its result, for `.withResponse()`; set before the call
 * resolves. Most callers never ask, so the response is only built when read.
 */
export interface ResponseSlot {
  answered?: AnsweredCall;
}

/** The answer's `x-request-id`, with any secret it echoes redacted. */
export function requestIdOf(headers: ResponseHeaders, secrets: readonly string[]): string | undefined {
  const requestId = headers.get('x-request-id');
  return requestId === null ? undefined : redactSecrets(requestId, secrets);
}

/**
 * Response headers with the call's secrets redacted from every value read. Only `get` is offered:
 * the transport's own headers object (a fetch `Headers`, Node's parsed headers) is held in a private
 * field, so neither iterating nor inspecting the response can show an echoed secret.
 */
class RedactedHeaders implements ResponseHeaders {
  readonly #headers: ResponseHeaders;
  readonly #secrets: readonly string[];

  constructor(headers: ResponseHeaders, secrets: readonly string[]) {
    this.#headers = headers;
    this.#secrets = secrets;
  }

  get(name: string): string | null {
    const value = this.#headers.get(name);
    return value === null ? null : redactSecrets(value, this.#secrets);
  }
}

/** The {@link WalletResponse} of a successful answer after `attempts` attempts that took `durationMs`. */
export function responseOf(
  answer: { readonly status: number; readonly headers: ResponseHeaders },
  attempts: number,
  durationMs: number,
  secrets: readonly string[],
): WalletResponse {
  return {
    status: answer.status,
    headers: new RedactedHeaders(answer.headers, secrets),
    requestId: requestIdOf(answer.headers, secrets),
    attempts,
    durationMs,
  };
}
