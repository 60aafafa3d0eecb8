import type * as Http from 'node:http';
import type { AttemptOutcome, AttemptRequest, Transport } from './attempt.js';
import { UnreadableBody } from './body-reader.js';
import { describeNetworkFailure, notSent, REDIRECTED } from './network-failure.js';
import { ACCEPT_ENCODING, readNodeBody } from './node-body.js';
import { type NodeRoute, nodeRoute, type RouteOptions } from './node-route.js';
import type { NodeRuntime } from './node-runtime.js';

/** A transport together with the connections it holds. */
export interface NodeConnections {
  readonly transport: Transport;
  /** Destroys the sockets of the agents the client created; a given agent is left alone. */
  readonly destroy: () => void;
}

/**
 * A transport over `node:http`/`node:https`, used on Node when no `fetch` is given: it costs a
 * third of `fetch` per request. Each client owns a keep-alive agent (or uses the one given), and
 * honours `HTTPS_PROXY`/`HTTP_PROXY`/`NO_PROXY`.
 * A request counts as possibly sent unless its error proves otherwise (refused,
 * unresolvable host), as with `fetch`: mocking libraries connect sockets lazily,
 * so the socket's own events cannot be trusted to say more. What it adds over
 * `fetch`: whether a reset came on a reused keep-alive socket (`reusedSocket`),
 * and gzip, deflate and br decoding under the same byte limit.
 */
export function nodeTransport(
  runtime: NodeRuntime,
  options: Omit<RouteOptions, 'env' | 'baseUrl'>,
): NodeConnections {
  // One route per origin, made on first use: a client normally talks to one, but clients that share
  // this transport may use another base URL. Each base URL object is looked up by identity after its
  // first request, with the request target's prefix, so the hot path reads no URL property.
  const routes = new Map<string, NodeRoute>();
  const bases = new WeakMap<URL, RoutedBase>();
  const route = (baseUrl: URL): RoutedBase => {
    let base = bases.get(baseUrl);
    if (!base) {
      let found = routes.get(baseUrl.origin);
      if (!found) {
        found = nodeRoute(runtime.modules, { ...options, baseUrl, env: runtime.env });
        routes.set(baseUrl.origin, found);
      }
      base = { route: found, targetPrefix: `${found.targetPrefix}${baseUrl.pathname}` };
      bases.set(baseUrl, base);
    }
    return base;
  };
  return {
    transport: (request) => {
      let found: RoutedBase;
      try {
        found = route(request.baseUrl);
      } catch (error) {
        // A client made by withOptions for another scheme meets that scheme's proxy variable only now.
        return Promise.resolve(unroutable(error));
      }
      return exchange(found, request);
    },
    destroy: () => {
      for (const route of routes.values()) route.owned?.destroy();
    },
  };
}

/** A base URL's route, and the start of the request target for the paths under it. */
interface RoutedBase {
  readonly route: NodeRoute;
  readonly targetPrefix: string;
  /** The last frozen headers object sent without a body, and its list: a client sends one for all such calls. */
  lastHeaders?: AttemptRequest['headers'];
  lastList?: string[];
}

function exchange(base: RoutedBase, request: AttemptRequest): Promise<AttemptOutcome> {
  const { route, targetPrefix } = base;
  const { signal } = request;
  if (signal?.aborted) return Promise.resolve({ kind: 'aborted', maybeSent: false });
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: AttemptOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    // A reset before any byte of the answer on a reused keep-alive connection is most likely a
    // connection the server closed while idle; only then may the decision point retry it for free.
    let answered = false;
    const fail = (error: unknown) => {
      const failure = describeNetworkFailure(error);
      const staleSocket = failure.staleSocket && outgoing.reusedSocket && !answered;
      // Once the status line has arrived the request was certainly sent.
      finish({ kind: 'network', ...failure, maybeSent: failure.maybeSent || answered, staleSocket });
    };
    const outgoing = route.request(
      {
        hostname: route.hostname,
        port: route.port,
        path: targetPrefix + request.path,
        method: request.method,
        headers: headerList(base, request),
        agent: route.agent,
      },
      (incoming) => {
        answered = true;
        const status = incoming.statusCode ?? 0;
        if (status >= 300 && status < 400) return stop({ kind: 'network', ...REDIRECTED });
        const headers = { get: (name: string) => headerValue(incoming.headers, name) };
        readNodeBody(incoming, request.maxResponseBytes, {
          text: (text) => finish({ kind: 'response', status, headers, text }),
          fail: (error) => {
            if (!(error instanceof UnreadableBody)) return fail(error);
            // Dropping the connection is what stops the rest of an oversized body from arriving.
            stop({ kind: 'unreadable', status, headers, problem: error.message });
          },
        });
      },
    );
    const stop = (outcome: AttemptOutcome) => {
      finish(outcome);
      outgoing.destroy();
    };
    const timer = setTimeout(() => stop({ kind: 'timeout', maybeSent: true }), request.timeoutMs);
    const onAbort = () => stop({ kind: 'aborted', maybeSent: true });
    if (signal) signal.addEventListener('abort', onAbort, { once: true });
    outgoing.on('error', fail);
    outgoing.end(request.body);
  });
}

/** A request with no route (a bad proxy variable) was never sent; the description names the variable. */
function unroutable(error: unknown): AttemptOutcome {
  return { kind: 'network', ...notSent(error instanceof Error ? error.message : 'no route to the API') };
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

function headerValue(headers: Http.IncomingHttpHeaders, name: string): string | null {
  const value = headers[name.toLowerCase()];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}
