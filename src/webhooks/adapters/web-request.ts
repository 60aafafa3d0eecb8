/** The parts of a server's request a Fetch `Request` is built from. */
export interface RawWebhookRequest {
  /** The request method. */
  readonly method: string;
  /** The path and query (`/wallet/webhooks`), or an absolute URL. */
  readonly url: string;
  /** Headers as Node and most servers give them: a name maps to a value, a list of values, or nothing. */
  readonly headers: Readonly<Record<string, string | readonly string[] | number | undefined>>;
  /** The raw body as sent: bytes (a `Buffer` is one), a string, or nothing. */
  readonly body: Uint8Array | string | undefined;
}

/**
 * Builds the Fetch `Request` the webhook handler takes from a server's raw request: for a framework
 * without an adapter here (Koa, a custom server). It takes Node's header shape and a `Buffer` as they
 * are: `new Request(url, { headers: Object.entries(req.headers), body: buffer })` does not compile
 * (`string[][]` is no `HeadersInit`, a `Buffer` no `BodyInit`).
 *
 * @example
 * import { createServer } from 'node:http';
 *
 * createServer(async (req, res) => {
 *   const chunks: Buffer[] = [];
 *   for await (const chunk of req) chunks.push(chunk as Buffer);
 *   const raw = { method: req.method ?? 'POST', url: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks) };
 *   const response = await walletWebhook(webRequestFrom(raw));
 *   res.writeHead(response.status, Object.fromEntries(response.headers)).end(await response.text());
 * });
 */
export function webRequestFrom(raw: RawWebhookRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw.headers)) {
    // HTTP/2 pseudo-headers (`:path`) are not valid Fetch header names.
    if (value === undefined || name.startsWith(':')) continue;
    for (const item of Array.isArray(value) ? value : [String(value)]) headers.append(name, item);
  }
  let url = 'http://localhost/';
  try {
    url = new URL(raw.url, `http://${headers.get('host') ?? 'localhost'}`).href;
  } catch {
    // A malformed Host header: the handler does not need the URL, so keep a placeholder.
  }
  const method = raw.method.toUpperCase();
  // A copy in a fresh ArrayBuffer: a Buffer may be a view into Node's shared pool.
  const body = typeof raw.body === 'string' ? raw.body : raw.body && new Uint8Array(raw.body);
  const init: RequestInit = { method, headers };
  if (method !== 'GET' && method !== 'HEAD' && body !== undefined) init.body = body;
  return new Request(url, init);
}
