// Serves a Fetch-API handler on 127.0.0.1, port 0, with the runtime's own server.
import { toNodeHandler } from '../../../dist/webhooks.js';

/** Resolves to `{ url, close }`; `via` names the server used. */
export async function serve(handler) {
  if (globalThis.Bun) {
    const server = globalThis.Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: handler });
    return { via: 'Bun.serve', url: `http://127.0.0.1:${server.port}/`, close: () => server.stop(true) };
  }
  if (globalThis.Deno) {
    const { promise, resolve } = Promise.withResolvers();
    const server = globalThis.Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: resolve }, handler);
    const { port } = await promise;
    return { via: 'Deno.serve', url: `http://127.0.0.1:${port}/`, close: () => server.shutdown() };
  }
  // Node has no Fetch-API server: the SDK's adapter for node:http is what Node users run.
  const { createServer } = await import('node:http');
  const server = createServer(toNodeHandler(handler));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    via: 'node:http + toNodeHandler',
    url: `http://127.0.0.1:${server.address().port}/`,
    close: () =>
      new Promise((resolve) => {
        server.close(resolve);
        server.closeAllConnections();
      }),
  };
}
