import { concatBytes, DEFAULT_WEBHOOK_MAX_BYTES, resolveMaxBytes, tooLarge, unreadable } from './body.js';
import { handlerLimits, type WebhookHandler } from './handler.js';
import { methodNotAllowed, refused, retryLater } from './responses.js';

/**
 * The parts of a `node:http` `IncomingMessage` (or an Express `Request`) the adapter uses.
 * Structural, so this entry needs no Node types at runtime.
 */
export interface NodeWebhookRequest {
  /** The request method; anything but POST is answered 405. */
  readonly method?: string | undefined;
  /** The request target (path and query), used to build the URL the handler sees. */
  readonly url?: string | undefined;
  /** The request headers, names in lower case as Node gives them. */
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** Set by a body parser (Express `json()`, `text()`, `raw()`) that already read the stream. */
  readonly body?: unknown;
  /** Whether the body stream was already read to its end; without a `body` left by the reader, it is refused as unreadable. */
  readonly readableEnded?: boolean;
  /** Receives each chunk of the body. */
  on(event: 'data', listener: (chunk: Uint8Array | string) => void): unknown;
  /** Learns that the body ended (`end`) or the sender went away (`close`, `error`). */
  on(event: 'end' | 'close' | 'error', listener: () => void): unknown;
  /** Stops receiving body chunks once the body is read or refused. */
  off(event: 'data', listener: (chunk: Uint8Array | string) => void): unknown;
  /** Stops listening for the end of the body. */
  off(event: 'end' | 'close' | 'error', listener: () => void): unknown;
  /** Stops the flow of a body that passed the size limit. */
  pause(): unknown;
}

/** The parts of a `node:http` `ServerResponse` (or an Express `Response`) the adapter uses. */
export interface NodeWebhookResponse {
  /** Whether something else already answered; then the adapter writes nothing. */
  readonly headersSent: boolean;
  /** Writes the status and headers of the handler's answer. */
  writeHead(status: number, headers: Record<string, string>): unknown;
  /** Writes the body of the handler's answer and ends the response. */
  end(body: Uint8Array): unknown;
}

/** A `node:http` / Express request listener; its promise settles once the response is written and never rejects. */
export type NodeWebhookHandler = (req: NodeWebhookRequest, res: NodeWebhookResponse) => Promise<void>;

/** Options of {@link toNodeHandler}. */
export interface NodeHandlerOptions {
  /**
   * Largest body read, in bytes; a larger one is answered 413 as soon as it passes the limit.
   * @default the `maxBytes` of the handler, else 65536
   */
  maxBytes?: number;
}

const encoder = new TextEncoder();

type BodyResult = Uint8Array | 'too_large' | 'unreadable';

function preParsedBody(body: unknown): Uint8Array {
  if (typeof body === 'string') return encoder.encode(body);
  if (body instanceof Uint8Array) return body;
  return encoder.encode(JSON.stringify(body) ?? '');
}

function readStream(req: NodeWebhookRequest, maxBytes: number): Promise<BodyResult> {
  return new Promise((resolve) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const settle = (result: BodyResult) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onFail);
      req.off('error', onFail);
      resolve(result);
    };
    const onData = (chunk: Uint8Array | string) => {
      const bytes = typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
      size += bytes.byteLength;
      chunks.push(bytes);
      if (size > maxBytes) {
        // Stop buffering; Node discards the rest once the response is sent.
        req.pause();
        settle('too_large');
      }
    };
    const onEnd = () => settle(concatBytes(chunks, size));
    // 'close' before 'end' means the sender went away mid-body.
    const onFail = () => settle('unreadable');
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('close', onFail);
    req.on('error', onFail);
  });
}

function readBody(req: NodeWebhookRequest, maxBytes: number): Promise<BodyResult> | BodyResult {
  if (req.body !== undefined && req.readableEnded !== false) {
    const bytes = preParsedBody(req.body);
    return bytes.byteLength > maxBytes ? 'too_large' : bytes;
  }
  if (Number(req.headers['content-length']) > maxBytes) return 'too_large';
  // Someone else consumed the stream without leaving a body: waiting for 'end' would hang.
  if (req.readableEnded) return 'unreadable';
  return readStream(req, maxBytes);
}

function toRequest(req: NodeWebhookRequest, body: Uint8Array): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    // HTTP/2 pseudo-headers (`:path`) are not valid Fetch header names.
    if (value === undefined || name.startsWith(':')) continue;
    for (const item of typeof value === 'string' ? [value] : value) headers.append(name, item);
  }
  let url = 'http://localhost/';
  try {
    url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`).href;
  } catch {
    // A malformed Host header: the handler does not need the URL, so keep a placeholder.
  }
  return new Request(url, { method: 'POST', headers, body: body as Uint8Array<ArrayBuffer> });
}

/**
 * Adapts a {@link createWebhookHandler} handler to `node:http` and Express. It reads the raw body
 * with the size limit (a body over it is answered 413 at once, and a sender that goes away
 * mid-body gets no callback), or uses `req.body` when a body parser already read the stream
 * (string, Buffer or parsed JSON object).
 *
 * @example
 * import { createServer } from 'node:http';
 * createServer(toNodeHandler(createWebhookHandler({ onTransaction }))).listen(3000);
 * // Express: app.post('/wallet/webhook', toNodeHandler(handler));
 */
export function toNodeHandler(handler: WebhookHandler, options: NodeHandlerOptions = {}): NodeWebhookHandler {
  const maxBytes =
    options.maxBytes === undefined
      ? (handlerLimits.get(handler) ?? DEFAULT_WEBHOOK_MAX_BYTES)
      : resolveMaxBytes(options.maxBytes);

  async function respond(req: NodeWebhookRequest): Promise<Response> {
    // Answered here, as the handler would: `new Request()` refuses some methods (CONNECT, TRACE).
    if (req.method !== 'POST') return methodNotAllowed();
    const body = await readBody(req, maxBytes);
    // Closing after a refused upload keeps the sender from streaming the rest of it into the socket.
    if (body === 'too_large') return refused(tooLarge(maxBytes), { connection: 'close' });
    if (body === 'unreadable') return refused(unreadable(), { connection: 'close' });
    return handler(toRequest(req, body));
  }

  return async (req, res) => {
    let response: Response;
    let payload: Uint8Array;
    try {
      response = await respond(req);
      payload = new Uint8Array(await response.arrayBuffer());
    } catch {
      response = retryLater(500, 'internal_error');
      payload = encoder.encode(await response.text());
    }
    if (res.headersSent) return;
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(payload);
  };
}
