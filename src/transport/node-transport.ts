import type * as Http from 'node:http';
import type { AttemptOutcome, AttemptRequest, Transport } from './attempt.js';
import { describeNetworkFailure } from './network-failure.js';
import { type NodeModules, type NodeRoute, nodeRoute, type RouteOptions } from './node-route.js';
import type { ProxyEnv } from './proxy-env.js';

/** A transport together with the connections it holds. */
export interface NodeConnections {
  readonly transport: Transport;
  /** Destroys the sockets of the agents the client created; a given agent is left alone. */
  readonly destroy: () => void;
  /**
   * Settles how requests reach `url`'s origin (agent, proxy).
   * @throws {WalletConfigError} naming a proxy variable whose value is not a URL.
   */
  readonly route: (url: URL) => NodeRoute;
}

/**
 * A transport over `node:http`/`node:https`, used on Node when no `fetch` is given: it costs a
 * third of `fetch` per request. Each client owns a keep-alive agent (or uses the one given), and
 * honours `HTTPS_PROXY`/`HTTP_PROXY`/`NO_PROXY`.
 * A request counts as possibly sent unless its error proves otherwise (refused,
 * unresolvable host), as with `fetch`: mocking libraries connect sockets lazily,
 * so the socket's own events cannot be trusted to say more.
 * Returns `undefined` outside Node, where the fetch transport is used.
 */
export function nodeTransport(options: Omit<RouteOptions, 'env' | 'baseUrl'>): NodeConnections | undefined {
  const runtime = nodeRuntime();
  if (!runtime) return undefined;
  // One route per origin, made on first use: a client normally talks to one, but clients that share
  // this transport may use another base URL.
  const routes = new Map<string, NodeRoute>();
  const route = (url: URL) => {
    let found = routes.get(url.origin);
    if (!found) {
      found = nodeRoute(runtime.modules, { ...options, baseUrl: url, env: runtime.env });
      routes.set(url.origin, found);
    }
    return found;
  };
  return {
    route,
    transport: (request) => exchange(route(request.url), request),
    destroy: () => {
      for (const route of routes.values()) route.owned?.destroy();
    },
  };
}

/** Node's `http` module where this is Node itself (Bun and Deno use the fetch transport). */
export function nodeRuntime(): { modules: NodeModules; env: ProxyEnv } | undefined {
  const runtime = globalThis as {
    process?: {
      getBuiltinModule?: (id: string) => unknown;
      versions?: { bun?: string };
      env?: ProxyEnv;
    };
    Deno?: unknown;
  };
  const getBuiltinModule = runtime.process?.getBuiltinModule;
  if (
    typeof getBuiltinModule !== 'function' ||
    runtime.Deno !== undefined ||
    runtime.process?.versions?.bun
  ) {
    return undefined;
  }
  const modules = {
    http: getBuiltinModule('node:http'),
    https: getBuiltinModule('node:https'),
    tls: getBuiltinModule('node:tls'),
  } as NodeModules;
  return { modules, env: runtime.process?.env ?? {} };
}

function exchange(route: NodeRoute, request: AttemptRequest): Promise<AttemptOutcome> {
  const { url, signal } = request;
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
    const fail = (error: unknown) => finish({ kind: 'network', ...describeNetworkFailure(error) });
    const outgoing = route.request(
      {
        hostname: route.hostname,
        port: route.port,
        path: `${route.targetPrefix}${url.pathname}${url.search}`,
        method: request.method,
        headers: route.extraHeaders ? { ...request.headers, ...route.extraHeaders } : request.headers,
        agent: route.agent,
      },
      (incoming) => {
        const status = incoming.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          incoming.resume();
          finish({
            kind: 'network',
            maybeSent: false,
            redirect: true,
            description: 'the API answered with a redirect',
          });
          return;
        }
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('error', fail);
        incoming.on('aborted', () => fail(new Error('response aborted')));
        incoming.on('end', () => {
          if (!incoming.complete) return fail(new Error('response ended before its body was complete'));
          const text = (chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)).toString('utf8');
          finish({
            kind: 'response',
            status,
            headers: { get: (name) => headerValue(incoming.headers, name) },
            text,
          });
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

function headerValue(headers: Http.IncomingHttpHeaders, name: string): string | null {
  const value = headers[name.toLowerCase()];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}
