import type { NetworkFailure } from './network-failure.js';

/** One HTTP exchange to make. */
export interface AttemptRequest {
  readonly url: URL;
  readonly method: 'GET' | 'POST';
  readonly headers: Record<string, string>;
  readonly body: string | undefined;
  readonly timeoutMs: number;
  readonly signal: AbortSignal | undefined;
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
  | ({ readonly kind: 'network' } & NetworkFailure)
  | { readonly kind: 'timeout'; readonly maybeSent: boolean }
  | { readonly kind: 'aborted'; readonly maybeSent: boolean };

/**
 * Sends one request and reads the whole response body under one per-attempt
 * time limit. Never throws: every failure becomes an outcome, so the caller
 * decides about retries and money safety in one place.
 */
export type Transport = (request: AttemptRequest) => Promise<AttemptOutcome>;

/**
 * Runs `exchange` under the attempt's time limit and the caller's signal, and
 * tells a timeout from a caller's abort from any other failure.
 */
export async function withDeadline(
  request: AttemptRequest,
  exchange: (signal: AbortSignal) => Promise<AttemptOutcome>,
  describeFailure: (error: unknown) => NetworkFailure,
): Promise<AttemptOutcome> {
  if (request.signal?.aborted) return { kind: 'aborted', maybeSent: false };
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), request.timeoutMs);
  const signal = request.signal ? AbortSignal.any([request.signal, timeout.signal]) : timeout.signal;
  // Racing the signal keeps the deadline even when a custom fetch ignores it.
  let stopWaiting: () => void = () => {};
  const stopped = new Promise<never>((_, reject) => {
    stopWaiting = () => reject(signal.reason);
    signal.addEventListener('abort', stopWaiting, { once: true });
  });
  const exchanged = exchange(signal);
  exchanged.catch(() => {});
  try {
    return await Promise.race([exchanged, stopped]);
  } catch (error) {
    if (request.signal?.aborted) return { kind: 'aborted', maybeSent: true };
    if (timeout.signal.aborted) return { kind: 'timeout', maybeSent: true };
    return { kind: 'network', ...describeFailure(error) };
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', stopWaiting);
  }
}
