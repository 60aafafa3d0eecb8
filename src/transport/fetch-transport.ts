import type { AttemptOutcome, AttemptRequest, Transport } from './attempt.js';
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
    .then(
      async (response): Promise<AttemptOutcome> => ({
        kind: 'response',
        status: response.status,
        headers: response.headers,
        text: await response.text(),
      }),
    )
    .catch((error: unknown): AttemptOutcome => ({ kind: 'network', ...describeNetworkFailure(error) }));
  try {
    return await Promise.race([exchanged, stopped]);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}
