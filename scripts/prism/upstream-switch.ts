import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The header naming the sandbox a request is for (test/integration/harness.ts sets it). */
export const UPSTREAM_HEADER = 'x-sandbox-upstream';

/** A running switch: Prism's one upstream, forwarding each request to the sandbox it names. */
export interface UpstreamSwitch {
  /** Where Prism forwards to. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Where a request goes: the URL its {@link UPSTREAM_HEADER} names (an API request), or, without the
 * header, the loopback port its path starts with (a webhook delivery, `/{port}/wallet/webhooks`).
 */
function targetOf(req: IncomingMessage): { url: URL; path: string } | undefined {
  const named = req.headers[UPSTREAM_HEADER];
  if (named === undefined) {
    const [, port, rest] = /^\/(\d{1,5})(\/.*)$/.exec(req.url ?? '') ?? [];
    return port && rest ? { url: new URL(`http://127.0.0.1:${port}`), path: rest } : undefined;
  }
  if (typeof named !== 'string' || !URL.canParse(named)) return undefined;
  const url = new URL(named);
  // Only sandboxes on this machine: the switch is no open proxy.
  if (url.hostname !== '127.0.0.1' || url.protocol !== 'http:') return undefined;
  // A named path (a sandbox's auth URL, `…/auth`) prefixes the request's.
  return { url, path: url.pathname.replace(/\/+$/, '') + (req.url ?? '/') };
}

/**
 * Starts the switch on a free loopback port. Prism's proxy takes one upstream for its whole run while
 * each suite starts sandboxes of its own, so the switch sends each request on, unchanged (status,
 * headers and body both ways), to the sandbox URL its {@link UPSTREAM_HEADER} names.
 */
export async function startUpstreamSwitch(): Promise<UpstreamSwitch> {
  const server: Server = createServer((req, res) => {
    const target = targetOf(req);
    if (!target) {
      res
        .writeHead(502, { 'content-type': 'text/plain' })
        .end(`no ${UPSTREAM_HEADER} naming a loopback sandbox`);
      return;
    }
    const headers = { ...req.headers };
    delete headers[UPSTREAM_HEADER];
    const forward = httpRequest(
      { host: target.url.hostname, port: target.url.port, method: req.method, path: target.path, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
