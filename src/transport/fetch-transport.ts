import type { AttemptOutcome, AttemptRequest, Transport } from './attempt.js';
import { BodyCollector, declaredTooLarge, tooLarge, UnreadableBody } from './body-reader.js';
import { denoFetchOptions } from './deno-client.js';
import { describeNetworkFailure } from './network-failure.js';

type Ky = typeof import('ky').default;

/**
 * A transport over `fetch` (the given one, or the global one) through ky, for every runtime.
 * ky is loaded on first use, so Node, which has its own transport, never loads it.
 */
export function fetchTransport(fetch: typeof globalThis.fetch | undefined): Transport {
  let ky: Ky | undefined;
  return async (request) => {
    ky ??= (await import('ky')).default;
    return exchange(ky, fetch ?? globalThis.fetch, request);
  };
}

/**
 * One attempt under one deadline that covers the body too (ky's `timeout` stops at the headers).
 * The attempt's own controller reaches `fetch` through ky's `fetch` option rather than ky's
 * `signal`, which ky would merge with `AbortSignal.any` on every call, the slowest step of it.
 * Racing the deadline keeps it even when a custom fetch ignores the signal.
 */
async function exchange(
  ky: Ky,
  fetch: typeof globalThis.fetch,
  request: AttemptRequest,
): Promise<AttemptOutcome> {
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
  // The request ky builds is sent from its beforeRequest hook, whose answer ky takes as is: that skips
  // the copy of the request ky keeps for retries of its own (the SDK retries in send.ts). Should ky
  // not recognise the answer (a fetch with its own Response class), its `fetch` hands over the same
  // one, so the request is never sent twice. Object.assign rather than spreads: cheaper per call.
  let answer: Promise<Response> | undefined;
  let answered = false;
  const sendOnce = (built: Request) =>
    (answer ??= fetch(built, Object.assign({ signal: controller.signal }, denoFetchOptions(request.method))));
  const exchanged = ky(request.url, {
    method: request.method,
    headers: request.headers,
    body: request.body ?? null,
    redirect: 'error',
    retry: 0,
    timeout: false,
    throwHttpErrors: false,
    hooks: { beforeRequest: [sendOnce] },
    fetch: (input) => sendOnce(input as Request),
  })
    .then(async (response): Promise<AttemptOutcome> => {
      answered = true;
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
    })
    .catch((error: unknown): AttemptOutcome => {
      const failure = describeNetworkFailure(error);
      // A reset before the status line may be a keep-alive connection the server had closed.
      return { kind: 'network', ...failure, staleSocket: failure.staleSocket && !answered };
    });
  try {
    return await Promise.race([exchanged, stopped]);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
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
