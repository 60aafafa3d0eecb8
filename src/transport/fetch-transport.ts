import type { AttemptOutcome, AttemptRequest, Transport } from './attempt.js';
import { BodyCollector, declaredTooLarge, tooLarge, UnreadableBody } from './body-reader.js';
import { denoFetchOptions } from './deno-client.js';
import { describeNetworkFailure } from './network-failure.js';

/**
 * A transport over `fetch` (the given one, or the global one), for every runtime.
 * ky is loaded on first use, so Node, which has its own transport, never loads it.
 */
export function fetchTransport(fetch: typeof globalThis.fetch | undefined): Transport {
  return async (request) => {
    const { default: ky } = await import('ky');
    return withDeadline(request, async (signal, answered) => {
      const response = await ky(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body ?? null,
        signal,
        redirect: 'error',
        retry: 0,
        timeout: false,
        throwHttpErrors: false,
        ...(fetch ? { fetch } : {}),
        ...denoFetchOptions(request.method),
      });
      answered();
      const { status, headers } = response;
      try {
        return {
          kind: 'response',
          status,
          headers,
          text: await readText(response, request.maxResponseBytes),
        };
      } catch (error) {
        if (!(error instanceof UnreadableBody)) throw error;
        return { kind: 'unreadable', status, headers, problem: error.message };
      }
    });
  };
}

/**
 * Reads the body up to `maxBytes` of decoded bytes (fetch decompresses by itself), cancelling
 * the stream as soon as it is exceeded so a huge or endless body never sits in memory.
 */
async function readText(response: Response, maxBytes: number): Promise<string> {
  const encoded = (response.headers.get('content-encoding') ?? 'identity') !== 'identity';
  if (!encoded && declaredTooLarge(response.headers.get('content-length'), maxBytes)) {
    await response.body?.cancel();
    throw tooLarge(maxBytes);
  }
  const collector = new BodyCollector(maxBytes);
  const reader = response.body?.getReader();
  for (let chunk = await reader?.read(); chunk && !chunk.done; chunk = await reader?.read()) {
    try {
      collector.add(chunk.value);
    } catch (error) {
      await reader?.cancel();
      throw error;
    }
  }
  return collector.text();
}

/**
 * Runs `exchange` under the attempt's time limit and the caller's signal, and tells a
 * timeout from a caller's abort from any other failure. `exchange` calls `answered` once the
 * status line arrived, so a reset before it can be told from one in the middle of the body.
 */
async function withDeadline(
  request: AttemptRequest,
  exchange: (signal: AbortSignal, answered: () => void) => Promise<AttemptOutcome>,
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
  let hasAnswer = false;
  const exchanged = exchange(signal, () => {
    hasAnswer = true;
  });
  exchanged.catch(() => {});
  try {
    return await Promise.race([exchanged, stopped]);
  } catch (error) {
    if (request.signal?.aborted) return { kind: 'aborted', maybeSent: true };
    if (timeout.signal.aborted) return { kind: 'timeout', maybeSent: true };
    const failure = describeNetworkFailure(error);
    return { kind: 'network', ...failure, staleSocket: failure.staleSocket && !hasAnswer };
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', stopWaiting);
  }
}
