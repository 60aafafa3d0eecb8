import { WalletConfigError } from '../../errors.js';
import type { SandboxUrls } from '../http/router.js';
import { createSandboxRequestHandler } from '../http/router.js';
import type { Sandbox } from '../sandbox-types.js';

/**
 * An msw 2 `HttpHandler`, to pass to `setupServer` or `server.use`. It is typed loosely on
 * purpose: naming msw's class here would make these declarations fail to compile in projects
 * without msw, an optional peer dependency that only this function needs.
 */
// biome-ignore lint/suspicious/noExplicitAny: msw's handler type cannot be named without msw installed.
export type SandboxMswHandler = any;

/** msw, or a `WalletConfigError` saying to install it. */
async function loadMsw(): Promise<typeof import('msw')> {
  try {
    return await import('msw');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') throw error;
    throw new WalletConfigError('msw', 'is not installed: sandboxHandlers needs msw 2 (npm install -D msw)');
  }
}

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
 * @throws {WalletConfigError} (the promise rejects) when msw is not installed.
 * @example
 * const server = setupServer(...(await sandboxHandlers(sandbox, {
 *   baseUrl: 'https://wallet.test', authUrl: 'https://wallet.test/auth',
 * })));
 */
export async function sandboxHandlers(sandbox: Sandbox, urls: SandboxUrls): Promise<SandboxMswHandler[]> {
  const handle = createSandboxRequestHandler(sandbox, urls);
  const { http, HttpResponse } = await loadMsw();
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
