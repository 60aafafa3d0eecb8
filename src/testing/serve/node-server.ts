import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { WalletConfigError } from '../../errors.js';
import type { SandboxHttpRequest } from '../http/response.js';
import type { SandboxUrls } from '../http/router.js';
import { createSandboxRequestHandler, type SandboxRequestHandler } from '../http/router.js';
import type { Sandbox } from '../sandbox-types.js';
import { readBody } from './read-body.js';

/** Where and what to serve. */
export interface SandboxServerOptions {
  /** The sandbox to serve. */
  sandbox: Sandbox;
  /** `0` picks a free port. @default 0 */
  port?: number;
  /**
   * Interface to listen on. With `0.0.0.0` or `::` (every interface) the returned URLs use
   * loopback (`127.0.0.1` or `[::1]`), which a client on this machine can use.
   * @default '127.0.0.1'
   */
  host?: string;
}

/** A running sandbox server. */
export interface SandboxServer extends SandboxUrls {
  /** Stops listening and closes every connection, keep-alive ones included. */
  close(): Promise<void>;
}

function headersOf(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

async function serve(
  handler: SandboxRequestHandler,
  sandbox: Sandbox,
  origin: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const body = await readBody(req, sandbox.maxBodyBytes);
  // Only the path of the request line is trusted; an absolute-form target must not change the host.
  const path = (req.url ?? '/').startsWith('/') ? (req.url ?? '/') : '/';
  const request: SandboxHttpRequest = {
    method: req.method ?? 'GET',
    url: origin + path,
    headers: headersOf(req),
    body,
  };
  const response = await handler(request);
  if (response.kind === 'drop') {
    if (response.reset) req.socket.resetAndDestroy();
    else req.socket.destroy();
    return;
  }
  const bytes = Buffer.from(response.body);
  res.writeHead(response.status, { ...response.headers, 'content-length': String(bytes.byteLength) });
  if (response.resetAfterBytes === undefined) {
    res.end(bytes);
    return;
  }
  res.write(bytes.subarray(0, response.resetAfterBytes), () => {
    req.socket.resetAndDestroy();
  });
}

/**
 * The host to put in URLs for a listening address. An unspecified address (`0.0.0.0`, `::`)
 * means every interface, and is no address a client can connect to, so loopback stands in.
 * @internal
 */
export function reachableHost(address: string, family: string): string {
  if (address === '0.0.0.0') return '127.0.0.1';
  if (address === '::') return '[::1]';
  return family === 'IPv6' ? `[${address}]` : address;
}

/**
 * Serves `sandbox` over real HTTP. The API is at `baseUrl` (the server's
 * origin) and the login page at `authUrl` (`${baseUrl}/auth`), kept apart so
 * code that mixes them up fails.
 *
 * @example
 * const server = await startSandboxServer({ sandbox: createSandbox(), port: 0 });
 * // ... use server.baseUrl and server.authUrl ...
 * await server.close();
 */
export async function startSandboxServer(options: SandboxServerOptions): Promise<SandboxServer> {
  const { sandbox, port = 0, host = '127.0.0.1' } = options ?? {};
  if (typeof sandbox !== 'object' || sandbox === null) throw new WalletConfigError('sandbox', 'is required');
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new WalletConfigError('port', 'must be an integer from 0 to 65535');
  }
  if (typeof host !== 'string' || host === '')
    throw new WalletConfigError('host', 'must be a non-empty string');
  const sockets = new Set<Socket>();
  let handler: SandboxRequestHandler | undefined;
  let origin = '';
  const server = createServer((req, res) => {
    if (!handler) return void res.socket?.destroy();
    serve(handler, sandbox, origin, req, res).catch(() => {
      // The client went away mid-request; there is nobody left to answer.
      req.socket.destroy();
    });
  });
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('clientError', (_error, socket) => {
    // Malformed HTTP from a client: answer 400 when possible, never crash.
    if (socket.writable)
      socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('sandbox server has no TCP address');
  const hostPart = reachableHost(address.address, address.family);
  origin = `http://${hostPart}:${address.port}`;
  const urls = { baseUrl: origin, authUrl: `${origin}/auth` };
  handler = createSandboxRequestHandler(sandbox, urls);
  return {
    ...urls,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
      }),
  };
}
