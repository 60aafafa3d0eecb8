import ky from 'ky';
import { describeNetworkFailure, type NetworkFailure } from './network-failure.js';

/** One HTTP exchange to make. */
export interface AttemptRequest {
  readonly url: string;
  readonly method: 'GET' | 'POST';
  readonly headers: Record<string, string>;
  readonly body: string | undefined;
  readonly timeoutMs: number;
  readonly signal: AbortSignal | undefined;
  readonly fetch: typeof globalThis.fetch | undefined;
}

/** What one exchange came to. */
export type AttemptOutcome =
  | { readonly kind: 'response'; readonly status: number; readonly headers: Headers; readonly text: string }
  | ({ readonly kind: 'network' } & NetworkFailure)
  | { readonly kind: 'timeout' }
  | { readonly kind: 'aborted'; readonly maybeSent: boolean };

/**
 * Sends one request and reads the whole response body, all under one
 * per-attempt time limit. Never throws: every failure becomes an outcome, so
 * the caller decides about retries and money safety in one place.
 */
export async function attempt(request: AttemptRequest): Promise<AttemptOutcome> {
  if (request.signal?.aborted) return { kind: 'aborted', maybeSent: false };
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), request.timeoutMs);
  const signal = request.signal ? AbortSignal.any([request.signal, timeout.signal]) : timeout.signal;
  try {
    const response = await ky(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body ?? null,
      signal,
      redirect: 'error',
      retry: 0,
      timeout: false,
      throwHttpErrors: false,
      ...(request.fetch ? { fetch: request.fetch } : {}),
    });
    const text = await response.text();
    return { kind: 'response', status: response.status, headers: response.headers, text };
  } catch (error) {
    if (request.signal?.aborted) return { kind: 'aborted', maybeSent: true };
    if (timeout.signal.aborted) return { kind: 'timeout' };
    return { kind: 'network', ...describeNetworkFailure(error) };
  } finally {
    clearTimeout(timer);
  }
}
