import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';

/**
 * Serves a Fetch API handler (Hono's `app.fetch`) on node:http. `@hono/node-server` does the same;
 * this is its smallest form, so the example needs nothing beyond hono.
 */
export async function serve(
  fetch: (request: Request) => Response | Promise<Response>,
  port: number,
  host: string,
): Promise<{ server: Server; port: number }> {
  const server = createServer(async (req, res) => {
    try {
      const headers = new Headers();
      for (let i = 0; i < req.rawHeaders.length; i += 2)
        headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
      const body =
        req.method === 'GET' || req.method === 'HEAD' ? null : (Readable.toWeb(req) as ReadableStream);
      const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
      const response = await fetch(
        new Request(url, { method: req.method, headers, body, duplex: 'half' } as RequestInit),
      );
      res.statusCode = response.status;
      for (const [name, value] of response.headers) if (name !== 'set-cookie') res.setHeader(name, value);
      const cookies = response.headers.getSetCookie();
      if (cookies.length > 0) res.setHeader('set-cookie', cookies);
      res.end(Buffer.from(await response.arrayBuffer())); // small pages: no streaming needed
    } catch (error) {
      console.error('shop: request failed', error);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return { server, port: (server.address() as AddressInfo).port };
}
