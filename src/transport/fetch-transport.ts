import { type AttemptOutcome, type AttemptRequest, requestUrl, type Transport } from './attempt.js';
import { BodyCollector, declaredTooLarge, tooLarge, UnreadableBody } from './body-reader.js';
import { denoFetchOptions } from './deno-client.js';
import { describeNetworkFailure, REDIRECTED } from './network-failure.js';

/**
 * A transport over `fetch` (the given one, or the global one), for every runtime. It calls `fetch`
 * directly: retries, deadlines, error mapping and JSON parsing belong to the SDK's send loop, which
 * decides them for money safety, so a request library in between would only add a copy of each request.
 */
export function fetchTransport(fetch: typeof globalThis.fetch | undefined): Transport {
  return (request) => exchange(fetch ?? globalThis.fetch, request);
}

/**
 * One attempt under one deadline that covers the body too, not only the headers. Racing the
 * deadline keeps it even when a custom fetch ignores the signal.
 */
async function exchange(fetch: typeof globalThis.fetch, request: AttemptRequest): Promise<AttemptOutcome> {
  const { signal } = request;
  if (signal?.aborted) return { kind: 'aborted', maybeSent: false };
  const controller = new AbortController();
  let stopWaiting: (outcome: AttemptOutcome) => void = () => {};
  const stopped = new Promise<AttemptOutcome>((resolve) => {
    stopWaiting = (outcome) => {
      controller.abort();
      resolve(outcome);
    };
  });
  const timer = setTimeout(() => stopWaiting({ kind: 'timeout', maybeSent: true }), request.timeoutMs);
  const onAbort = () => stopWaiting({ kind: 'aborted', maybeSent: true });
  signal?.addEventListener('abort', onAbort, { once: true });
  let answered = false;
  // Object.assign rather than a spread: cheaper per call.
  const init: RequestInit = Object.assign(
    {
      method: request.method,
      // A copy: a custom fetch may add to the headers it is given, and the request's are shared.
      headers: { ...request.headers },
      body: request.body ?? null,
      // Never followed, so the API key never travels to another host. 'manual' rather than 'error':
      // workerd refuses 'error', and 'manual' hands the redirect back as an answer to judge.
      redirect: 'manual' as const,
      signal: controller.signal,
    },
    denoFetchOptions(request.method),
  );
  const exchanged = fetchSafely(fetch, requestUrl(request), init)
    .then(async (response): Promise<AttemptOutcome> => {
      answered = true;
      const { status, headers } = response;
      // A 3xx, or in browsers an opaque redirect (status 0): the request was sent, and is not followed.
      if (response.type === 'opaqueredirect' || (status >= 300 && status < 400)) {
        response.body?.cancel().catch(() => {});
        return { kind: 'network', ...REDIRECTED };
      }
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
    })
    .catch((error: unknown): AttemptOutcome => {
      const failure = describeNetworkFailure(error);
      // A reset before the status line may be a keep-alive connection the server had closed.
      // Once the status line has arrived the request was certainly sent.
      return {
        kind: 'network',
        ...failure,
        maybeSent: failure.maybeSent || answered,
        staleSocket: failure.staleSocket && !answered,
      };
    });
  try {
    return await Promise.race([exchanged, stopped]);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

/** `fetch`'s answer as a promise, even from a custom fetch that throws or returns a plain value. */
function fetchSafely(fetch: typeof globalThis.fetch, url: string, init: RequestInit): Promise<Response> {
  try {
    return Promise.resolve(fetch(url, init));
  } catch (error) {
    return Promise.reject(error);
  }
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
  // A fetch from another library may answer without a body stream: its text, size-checked, is all there is.
  const reader = response.body?.getReader();
  if (!reader) {
    collector.add(new TextEncoder().encode(await response.text()));
    return collector.text();
  }
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    try {
      collector.add(chunk.value);
    } catch (error) {
      await reader.cancel();
      throw error;
    }
  }
  return collector.text();
}
