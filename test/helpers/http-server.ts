import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A real HTTP server on a free loopback port, for tests that need real sockets. */
export interface LocalServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Starts `handler` on 127.0.0.1 at a free port; `close()` also drops keep-alive sockets. */
export async function startLocalServer(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<LocalServer> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port with nothing listening on it. */
export async function closedPortUrl(): Promise<string> {
  const server = await startLocalServer(() => {});
  await server.close();
  return server.url;
}
