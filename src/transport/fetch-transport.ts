import { type Transport, withDeadline } from './attempt.js';
import { denoFetchOptions } from './deno-client.js';
import { describeNetworkFailure } from './network-failure.js';

/**
 * A transport over `fetch` (the given one, or the global one), for every runtime.
 * ky is loaded on first use, so Node, which has its own transport, never loads it.
 */
export function fetchTransport(fetch: typeof globalThis.fetch | undefined): Transport {
  return async (request) => {
    const { default: ky } = await import('ky');
    return withDeadline(
      request,
      async (signal) => {
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
        const text = await response.text();
        return { kind: 'response', status: response.status, headers: response.headers, text };
      },
      describeNetworkFailure,
    );
  };
}
