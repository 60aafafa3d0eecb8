import { defaultErrorMessage, isWalletErrorCode, type WalletEndpoint } from '../../error-codes.js';
import { type ErrorBodyShape, errorBody } from './error-body.js';
import { SANDBOX_ERROR_STATUS, SANDBOX_PROTOCOL_ERRORS, type SandboxErrorCode } from './status.js';

/** A request as both servers hand it to the shared handler. Header names are lower-case. */
export interface SandboxHttpRequest {
  /** The HTTP method, upper-case. */
  method: string;
  /** The absolute URL. */
  url: string;
  /** The request headers by lower-case name; repeated headers joined with `, `. */
  headers: Readonly<Record<string, string | undefined>>;
  /** The raw body; a body longer than the sandbox's limit may be cut to one byte over it. */
  body: Uint8Array;
}

/**
 * What the shared handler tells a server to do: answer, or drop the connection.
 * `resetAfterBytes` asks the server to send only that many body bytes and then reset.
 */
export type SandboxHttpResponse =
  | {
      /** Send this answer. */
      kind: 'respond';
      /** The HTTP status. */
      status: number;
      /** The response headers. */
      headers: Record<string, string>;
      /** The body text (UTF-8). */
      body: string;
      /** Send only this many body bytes, then reset the connection. */
      resetAfterBytes?: number;
    }
  | {
      /** Close the connection without answering. */
      kind: 'drop';
    };

const JSON_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
} as const;

/** A JSON answer. */
export function jsonResponse(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): SandboxHttpResponse {
  return { kind: 'respond', status, headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) };
}

/** The HTTP status the sandbox uses for `code`. */
export function statusOf(code: SandboxErrorCode): number {
  return isWalletErrorCode(code) ? SANDBOX_ERROR_STATUS[code] : SANDBOX_PROTOCOL_ERRORS[code].status;
}

/** An error answer in `shape`, with the spec's message for `code` on `endpoint`. */
export function errorResponse(
  shape: ErrorBodyShape,
  code: SandboxErrorCode,
  endpoint: WalletEndpoint | undefined,
  headers: Record<string, string> = {},
): SandboxHttpResponse {
  const message = isWalletErrorCode(code)
    ? defaultErrorMessage(code, endpoint ?? 'status')
    : SANDBOX_PROTOCOL_ERRORS[code].message;
  return jsonResponse(statusOf(code), errorBody(shape, code, message), headers);
}

/** An HTML answer with headers that keep the page from being framed or leaking its URL. */
export function htmlResponse(
  status: number,
  html: string,
  headers: Record<string, string> = {},
): SandboxHttpResponse {
  return {
    kind: 'respond',
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'",
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      ...headers,
    },
    body: html,
  };
}

/** A 303 redirect, so the browser follows with a GET. */
export function redirectResponse(location: string): SandboxHttpResponse {
  return {
    kind: 'respond',
    status: 303,
    headers: { location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
    body: '',
  };
}
