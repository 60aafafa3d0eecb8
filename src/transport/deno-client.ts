interface DenoHttpApi {
  createHttpClient?: (options: { poolMaxIdlePerHost?: number }) => unknown;
}

let postClient: unknown;

/**
 * Extra `fetch` options for one request on Deno; none elsewhere.
 *
 * Deno's fetch re-sends a request by itself when a reused keep-alive connection closes
 * before the answer starts, which is also what a server that applied the request and then
 * died looks like. A POST re-sent that way is answered `reference_already_used` on what the
 * SDK counts as its first attempt: a plain duplicate error instead of
 * `WalletOutcomeUnknownError`. So POSTs there go over a client that keeps no idle
 * connection: nothing is reused, nothing is re-sent behind the SDK's back, and every
 * retry is the SDK's own. GETs keep the pool; re-sending them is harmless.
 */
export function denoFetchOptions(method: 'GET' | 'POST'): { client?: unknown } {
  if (method !== 'POST') return {};
  const deno = (globalThis as { Deno?: DenoHttpApi }).Deno;
  if (typeof deno?.createHttpClient !== 'function') return {};
  postClient ??= deno.createHttpClient({ poolMaxIdlePerHost: 0 });
  return { client: postClient };
}
