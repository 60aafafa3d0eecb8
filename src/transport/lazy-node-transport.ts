import { type AttemptOutcome, type AttemptReceiver, type AttemptRequest, transportOf } from './attempt.js';
import { notSent } from './network-failure.js';
import type { RouteOptions } from './node-route.js';
import { nodeRuntime } from './node-runtime.js';
import type { NodeConnections } from './node-transport.js';
import { proxyFor, proxyVariables } from './proxy-env.js';

/**
 * The node transport, loaded by the first request. Its code (agents, proxies, CONNECT tunnels,
 * decompression) is a module of its own that only Node imports, so a bundle for a browser or an edge
 * runtime keeps it in a chunk that is never fetched. The proxy variables are read now, once, and
 * checked for `baseUrl`, so a bad one is still a construction error. Its `destroy` frees sockets only
 * once a request has loaded the transport. Returns `undefined` outside Node, where the fetch
 * transport is used.
 * @throws {WalletConfigError} naming a proxy variable whose value is not a URL.
 */
export function lazyNodeTransport(
  baseUrl: URL,
  options: Omit<RouteOptions, 'env' | 'baseUrl'>,
): NodeConnections | undefined {
  const found = nodeRuntime();
  if (!found) return undefined;
  // The proxy variables as they are now: the transport, loaded later, routes by these.
  const runtime = { modules: found.modules, env: proxyVariables(found.env) };
  const given = baseUrl.protocol === 'https:' ? options.given?.https : options.given?.http;
  // A given agent does its own proxying, so the variables do not apply to it.
  if (!given) proxyFor(baseUrl, runtime.env);
  let loaded: NodeConnections | undefined;
  let loading: Promise<NodeConnections> | undefined;
  const load = () =>
    (loading ??= import('./node-transport.js').then(
      (module) => {
        loaded = module.nodeTransport(runtime, options);
        return loaded;
      },
      (error: unknown) => {
        // The next request tries again rather than failing for good.
        loading = undefined;
        throw error;
      },
    ));
  const start = (request: AttemptRequest, receiver: AttemptReceiver): void => {
    if (loaded) loaded.transport.start(request, receiver);
    else {
      load()
        .then(
          (node) => node.transport.start(request, receiver),
          (error: unknown) => receiver.arrived(notLoaded(error)),
        )
        .catch((error: unknown) => receiver.failed(error));
    }
  };
  return { transport: transportOf(start), destroy: () => loaded?.destroy() };
}

/** A transport module that failed to load (a broken bundle) sent nothing; the module error carries no request data. */
function notLoaded(error: unknown): AttemptOutcome {
  const reason = error instanceof Error ? `: ${error.message}` : '';
  return { kind: 'network', ...notSent(`the node:http transport could not be loaded${reason}`) };
}
