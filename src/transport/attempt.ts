import type { NetworkFailure } from './network-failure.js';

/** One HTTP exchange to make. */
export interface AttemptRequest {
  readonly url: URL;
  readonly method: 'GET' | 'POST';
  readonly headers: Record<string, string>;
  readonly body: string | undefined;
  readonly timeoutMs: number;
  readonly signal: AbortSignal | undefined;
  /** Most bytes of (decoded) response body to read; past it, reading stops and the connection is dropped. */
  readonly maxResponseBytes: number;
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

/**
 * Sends one request and reads the whole response body under one per-attempt
 * time limit. Never throws: every failure becomes an outcome, so the caller
 * decides about retries and money safety in one place.
 */
export type Transport = (request: AttemptRequest) => Promise<AttemptOutcome>;
