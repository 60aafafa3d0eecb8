import type { HttpHandler } from 'msw';
import type { SandboxUrls } from '../http/router.js';
import { createSandboxRequestHandler } from '../http/router.js';
import type { Sandbox } from '../sandbox.js';

/**
 * msw 2 request handlers that serve `sandbox` at `baseUrl` and `authUrl`,
 * answering exactly as `startSandboxServer` does. msw is loaded here, on
 * first call, so the rest of `merchant-wallet/testing` works without it.
 *
 * Dropped connections become `HttpResponse.error()` (a network error); a
 * reset mid-body becomes a body stream that errors halfway.
 * Webhooks the sandbox sends go through the global `fetch`, which msw also
 * intercepts: give the receiver its own msw handler, or use the node server.
 *
 * @example
 * const server = setupServer(...(await sandboxHandlers(sandbox, {
 *   baseUrl: 'https://wallet.test', authUrl: 'https://wallet.test/auth',
 * })));
 */
export async function sandboxHandlers(sandbox: Sandbox, urls: SandboxUrls): Promise<HttpHandler[]> {
  const handle = createSandboxRequestHandler(sandbox, urls);
  const { http, HttpResponse } = await import('msw');
  const origins = [...new Set([new URL(urls.baseUrl).origin, new URL(urls.authUrl).origin])];
  return origins.map((origin) =>
    http.all(`${origin}/*`, async ({ request }) => {
      const headers: Record<string, string> = {};
      request.headers.forEach((value, name) => {
        headers[name] = value;
      });
      const body = new Uint8Array(await request.arrayBuffer());
      const response = await handle({ method: request.method, url: request.url, headers, body });
      if (response.kind === 'drop') return HttpResponse.error();
      const bytes = new TextEncoder().encode(response.body);
      const init = { status: response.status, headers: response.headers };
      const cut = response.resetAfterBytes;
      if (cut === undefined)
        return new HttpResponse(response.status === 303 || bytes.byteLength === 0 ? null : bytes, init);
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes.subarray(0, cut));
          controller.error(new TypeError('connection reset by sandbox fault'));
        },
      });
      return new HttpResponse(stream, init);
    }),
  );
}
