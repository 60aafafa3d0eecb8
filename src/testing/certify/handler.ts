import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { WalletConfigError } from '../../errors.js';
import type { Sandbox } from '../sandbox-types.js';
import { certifyEndpoint } from './run.js';
import type { CertifyReport } from './types.js';

/** Options of {@link certifyHandler}: the merchant's handler, how to count its effects, the sandbox it reads from. */
export interface CertifyHandlerOptions {
  /** The sandbox the handler's client reads transactions back from. */
  sandbox: Sandbox;
  /**
   * The merchant's webhook handler: a Fetch-style one (`(request) => Promise<Response>`, what
   * `createWebhookHandler` returns, Hono's `app.fetch`) or a `node:http` listener (Express, `toNodeHandler`).
   */
  handler: ((request: Request) => Promise<Response>) | RequestListener;
  /** Whether `handler` is a `node:http` listener. @default false (Fetch-style) */
  node?: boolean;
  /**
   * The merchant's effect count now: one per fulfilled payment (rows of a fulfilment table, orders
   * marked paid). Certify proves "one effect under 10 concurrent copies" and "no effect from a forgery" with it.
   */
  effects: () => number | Promise<number>;
  /** The merchant whose API key the handler reads back with. @default 'app_demo_shop' */
  appId?: string;
  /** The sender's timeout, 100 to 60000 ms. @default 5000 */
  timeoutMs?: number;
}

/** Feeds a `node:http` request to a Fetch-style handler and writes its answer. */
function fetchListener(handler: (request: Request) => Promise<Response>): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === 'string') headers.set(name, value);
      }
      const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(chunks);
      const response = await handler(
        new Request(`http://127.0.0.1${req.url ?? '/'}`, {
          method: req.method ?? 'GET',
          headers,
          ...(body ? { body } : {}),
        }),
      );
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  };
}

/**
 * The in-process mode of `certify`, for the merchant's test suite: serves `handler` on a loopback
 * port, runs every check against it and counts `effects` around each, so it can prove one effect
 * under 10 concurrent copies and no effect from a forged event. Configure the handler's client
 * with this sandbox's base URL and the merchant's key.
 * @throws {WalletConfigError} naming the option at fault.
 * @example
 * const report = await certifyHandler({ sandbox, handler: walletWebhook, effects: () => orders.countFulfilled() });
 * if (report.totals.fail > 0) throw new Error(JSON.stringify(report.checks, null, 2));
 */
export async function certifyHandler(options: CertifyHandlerOptions): Promise<CertifyReport> {
  if (typeof options !== 'object' || options === null)
    throw new WalletConfigError('options', 'must be an object');
  const { handler, node = false, effects, sandbox, ...rest } = options;
  if (typeof handler !== 'function') throw new WalletConfigError('handler', 'must be a function');
  if (typeof effects !== 'function')
    throw new WalletConfigError('effects', 'must be a function returning a count');
  const listener = node
    ? (handler as RequestListener)
    : fetchListener(handler as (request: Request) => Promise<Response>);
  const server: Server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    return await certifyEndpoint(sandbox, { ...rest, url: `http://127.0.0.1:${port}/webhooks`, effects });
  } finally {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
}
