import type { NetworkFailure } from './network-failure.js';

/** One HTTP exchange to make. */
export interface AttemptRequest {
  /** The client's base URL: it ends with `/` and has no query, so the request goes to `baseUrl.href + path`. */
  readonly baseUrl: URL;
  /** The path under `baseUrl`, every value in it already percent-encoded. */
  readonly path: string;
  readonly method: 'GET' | 'POST';
  /** Lower-case names; the object may be shared by many requests, so it is never changed. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
  readonly timeoutMs: number;
  readonly signal: AbortSignal | undefined;
  /** Most bytes of (decoded) response body to read; past it, reading stops and the connection is dropped. */
  readonly maxResponseBytes: number;
}

/** The URL an attempt goes to: joining strings, as `baseUrl` ends with `/` and `path` is relative and encoded. */
export function requestUrl(request: AttemptRequest): string {
  return request.baseUrl.href + request.path;
}

/** The response headers the client reads. */
export interface ResponseHeaders {
  /** The value of header `name` (case-insensitive; repeated ones joined by `, `), or `null` when absent. */
  get(name: string): string | null;
}

/** What one exchange came to. */
export type AttemptOutcome =
  | {
      readonly kind: 'response';
      readonly status: number;
      readonly headers: ResponseHeaders;
      readonly text: string;
    }
  /** An answer whose status arrived but whose body could not be read (too large, not UTF-8, bad compression). */
  | {
      readonly kind: 'unreadable';
      readonly status: number;
      readonly headers: ResponseHeaders;
      readonly problem: string;
    }
  | ({ readonly kind: 'network' } & NetworkFailure)
  | { readonly kind: 'timeout'; readonly maybeSent: boolean }
  | { readonly kind: 'aborted'; readonly maybeSent: boolean };

/** Where a transport hands what an attempt came to: exactly one of the two is called, once. */
export interface AttemptReceiver {
  /** What the exchange came to; every failure of the exchange is an outcome. */
  arrived(outcome: AttemptOutcome): void;
  /** The transport itself broke (a bug, not a failure of the exchange). */
  failed(error: unknown): void;
}

/**
 * Sends one request and reads the whole response body under one per-attempt
 * time limit. Never throws: every failure becomes an outcome, so the caller
 * decides about retries and money safety in one place.
 */
export type Transport = ((request: AttemptRequest) => Promise<AttemptOutcome>) & {
  /**
   * The same exchange, handing its outcome to `receiver` rather than to a promise: the send loop
   * uses it when present, so that an attempt costs no promise of its own. Transports may leave it out.
   */
  readonly start?: (request: AttemptRequest, receiver: AttemptReceiver) => void;
};

/** A transport that has its {@link Transport.start}. */
export type StartingTransport = Transport & { readonly start: NonNullable<Transport['start']> };

/** The transport made of `start`: its promise form calls `start` too. */
export function transportOf(start: NonNullable<Transport['start']>): StartingTransport {
  const transport = (request: AttemptRequest) =>
    new Promise<AttemptOutcome>((arrived, failed) => start(request, { arrived, failed }));
  return Object.assign(transport, { start });
}
