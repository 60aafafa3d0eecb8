import type { WalletEndpoint } from '../error-codes.js';

/** One API call. POSTs carry the reference id that makes retrying them safe. */
export interface CallSpec<T = unknown> {
  readonly endpoint: WalletEndpoint;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: Record<string, unknown>;
  readonly referenceId?: string;
  readonly userToken?: string;
  readonly signal?: AbortSignal | undefined;
  readonly timeoutMs?: number | undefined;
  /** This call's `maxRetries`, over the client's. */
  readonly maxRetries?: number | undefined;
  /** This call's extra headers (checked, lower-case names), over the client's. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /**
   * Checks a 2xx body and returns it typed, throwing `WalletResponseValidationError`.
   * It runs inside the retry loop so that an unreadable answer to a POST whose earlier
   * attempt may have been applied ends unknown rather than looking like a plain failure.
   */
  readonly validate: (body: unknown, status: number) => T;
}
