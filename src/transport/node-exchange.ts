import type * as Http from 'node:http';
import type { AttemptOutcome, AttemptReceiver, AttemptRequest, ResponseHeaders } from './attempt.js';
import { UnreadableBody } from './body-reader.js';
import { describeNetworkFailure, REDIRECTED } from './network-failure.js';
import { ACCEPT_ENCODING, type BodyReceiver, readNodeBody } from './node-body.js';
import type { NodeRoute } from './node-route.js';

/** A base URL's route, and the start of the request target for the paths under it. */
export interface RoutedBase {
  readonly route: NodeRoute;
  readonly targetPrefix: string;
  /** The last frozen headers object sent without a body, and its list: a client sends one for all such calls. */
  lastHeaders?: AttemptRequest['headers'];
  lastList?: string[];
}

/** Sends `request` on `base`'s route, reads the answer, and hands what it came to to `receiver`. */
export function startExchange(base: RoutedBase, request: AttemptRequest, receiver: AttemptReceiver): void {
  if (request.signal?.aborted) receiver.arrived({ kind: 'aborted', maybeSent: false });
  else new NodeExchange(base, request, receiver);
}

/** Where a request keeps its exchange, for the listeners every exchange shares. */
const EXCHANGE = Symbol('merchant-wallet.exchange');

type TaggedRequest = Http.ClientRequest & { [EXCHANGE]?: NodeExchange };

/**
 * One request on its way: its state, and the handlers Node calls. An object with methods, which
 * shared listeners find on the request, rather than closures made for every request: each request
 * in flight holds less memory for the garbage collector.
 */
class NodeExchange implements BodyReceiver {
  readonly #receiver: AttemptReceiver;
  readonly #signal: AbortSignal | undefined;
  readonly #outgoing: Http.ClientRequest;
  readonly #timer: ReturnType<typeof setTimeout>;
  #onAbort: (() => void) | undefined;
  #settled = false;
  /** Whether the status line arrived: from then on the request was certainly sent. */
  #answered = false;
  #status = 0;
  readonly #maxResponseBytes: number;
  #headers: ResponseHeaders | undefined;

  constructor(base: RoutedBase, request: AttemptRequest, receiver: AttemptReceiver) {
    const { route } = base;
    this.#receiver = receiver;
    this.#signal = request.signal;
    this.#maxResponseBytes = request.maxResponseBytes;
    const outgoing: TaggedRequest = route.request({
      hostname: route.hostname,
      port: route.port,
      path: base.targetPrefix + request.path,
      method: request.method,
      headers: headersFor(base, request),
      agent: route.agent,
    });
    this.#outgoing = outgoing;
    outgoing[EXCHANGE] = this;
    // `on`, not the `once` a callback gets: a request has one response, and `once` wraps each listener.
    outgoing.on('response', onResponse);
    outgoing.on('error', onRequestError);
    this.#timer = setTimeout(timeUp, request.timeoutMs, this);
    if (this.#signal) {
      this.#onAbort = () => this.stop({ kind: 'aborted', maybeSent: true });
      this.#signal.addEventListener('abort', this.#onAbort, { once: true });
    }
    outgoing.end(request.body);
  }

  /** The body, read whole: the answer. */
  text(text: string): void {
    this.#finish({ kind: 'response', status: this.#status, headers: this.#headers as ResponseHeaders, text });
  }

  /** The body could not be read: an answer without a body when it was refused, else a broken connection. */
  fail(error: unknown): void {
    if (error instanceof UnreadableBody) {
      // Dropping the connection is what stops the rest of an oversized body from arriving.
      this.stop({
        kind: 'unreadable',
        status: this.#status,
        headers: this.#headers as ResponseHeaders,
        problem: error.message,
      });
    } else this.connectionFailed(error);
  }

  /** Ends the attempt with `outcome` and drops the connection. */
  stop(outcome: AttemptOutcome): void {
    this.#finish(outcome);
    this.#outgoing.destroy();
  }

  /** The status line and headers arrived: a redirect ends here, else the body is read. */
  answer(incoming: Http.IncomingMessage): void {
    this.#answered = true;
    this.#status = incoming.statusCode ?? 0;
    if (this.#status >= 300 && this.#status < 400) {
      this.stop({ kind: 'network', ...REDIRECTED });
      return;
    }
    this.#headers = new NodeHeaders(incoming);
    readNodeBody(incoming, this.#maxResponseBytes, this);
  }

  /**
   * A connection error. A reset before any byte of the answer on a reused keep-alive connection is
   * most likely a connection the server closed while idle; only then may the decision point retry it
   * for free.
   */
  connectionFailed(error: unknown): void {
    const failure = describeNetworkFailure(error);
    const staleSocket = failure.staleSocket && this.#outgoing.reusedSocket && !this.#answered;
    this.#finish({
      kind: 'network',
      ...failure,
      maybeSent: failure.maybeSent || this.#answered,
      staleSocket,
    });
  }

  #finish(outcome: AttemptOutcome): void {
    if (this.#settled) return;
    this.#settled = true;
    clearTimeout(this.#timer);
    if (this.#onAbort) this.#signal?.removeEventListener('abort', this.#onAbort);
    this.#receiver.arrived(outcome);
  }
}

function exchangeOf(outgoing: TaggedRequest): NodeExchange {
  return outgoing[EXCHANGE] as NodeExchange;
}

function onResponse(this: TaggedRequest, incoming: Http.IncomingMessage): void {
  exchangeOf(this).answer(incoming);
}

function onRequestError(this: TaggedRequest, error: unknown): void {
  exchangeOf(this).connectionFailed(error);
}

function timeUp(exchange: NodeExchange): void {
  exchange.stop({ kind: 'timeout', maybeSent: true });
}

/**
 * The headers of an answer, read from Node's parsed headers on demand. It keeps the headers object
 * alone, not the message: a result kept by the caller does not hold the socket's buffers.
 */
class NodeHeaders implements ResponseHeaders {
  readonly #headers: Http.IncomingHttpHeaders;

  constructor(incoming: Http.IncomingMessage) {
    this.#headers = incoming.headers;
  }

  get(name: string): string | null {
    const value = this.#headers[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }
}

/**
 * The request's headers for `route.request`: a list, unless an instrumentation wrapped it (shimmer,
 * which OpenTelemetry's `instrumentation-http` uses, marks the wrapper `__wrapped`). Those copy
 * `options.headers` as an object, which turns a list into numbered keys: the API key would be lost.
 */
function headersFor(base: RoutedBase, request: AttemptRequest): string[] | Record<string, string> {
  const list = headerList(base, request);
  if (!(base.route.request as { __wrapped?: unknown }).__wrapped) return list;
  return Object.fromEntries(
    list.flatMap((name, index) => (index % 2 ? [] : [[name, list[index + 1] as string]])),
  );
}

/**
 * The request's headers as a flat list of names and values. Node writes a list as it is, without
 * the per-header bookkeeping of an object (a tenth of the client's time per call), so the list
 * carries `host`, and `content-length` for a body, which Node would otherwise send chunked. The
 * list of a frozen headers object is kept for the next request that sends it (Node only reads it).
 */
function headerList(base: RoutedBase, request: AttemptRequest): string[] {
  const { headers, body } = request;
  if (headers === base.lastHeaders && body === undefined && base.lastList) return base.lastList;
  const list = [...base.route.headerLines, 'accept-encoding', ACCEPT_ENCODING];
  for (const name of Object.keys(headers)) list.push(name, headers[name] as string);
  if (body !== undefined) list.push('content-length', String(Buffer.byteLength(body)));
  else if (Object.isFrozen(headers)) {
    base.lastHeaders = headers;
    base.lastList = list;
  }
  return list;
}
