import {
  type AttemptOutcome,
  type AttemptReceiver,
  type AttemptRequest,
  type StartingTransport,
  transportOf,
} from './attempt.js';
import { notSent } from './network-failure.js';
import { type RoutedBase, startExchange } from './node-exchange.js';
import { type NodeRoute, nodeRoute, type RouteOptions } from './node-route.js';
import type { NodeRuntime } from './node-runtime.js';

/** A transport together with the connections it holds. */
export interface NodeConnections {
  /** The transport, with its `start`. */
  readonly transport: StartingTransport;
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
  const start = (request: AttemptRequest, receiver: AttemptReceiver): void => {
    let found: RoutedBase;
    try {
      found = route(request.baseUrl);
    } catch (error) {
      // A client made by withOptions for another scheme meets that scheme's proxy variable only now.
      receiver.arrived(unroutable(error));
      return;
    }
    startExchange(found, request, receiver);
  };
  return {
    transport: transportOf(start),
    destroy: () => {
      for (const route of routes.values()) route.owned?.destroy();
    },
  };
}

/** A request with no route (a bad proxy variable) was never sent; the description names the variable. */
function unroutable(error: unknown): AttemptOutcome {
  return { kind: 'network', ...notSent(error instanceof Error ? error.message : 'no route to the API') };
}
