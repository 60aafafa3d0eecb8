import type { AttemptOutcome } from './attempt.js';
import { notSent } from './network-failure.js';
import type { RouteOptions } from './node-route.js';
import { nodeRuntime } from './node-runtime.js';
import type { NodeConnections } from './node-transport.js';
import { proxyFor } from './proxy-env.js';

/**
 * The node transport, loaded by the first request. Its code (agents, proxies, CONNECT tunnels,
 * decompression) is a module of its own that only Node imports, so a bundle for a browser or an edge
 * runtime keeps it in a chunk that is never fetched. The proxy variables for `baseUrl` are checked
 * now, so a bad one is still a construction error. Returns `undefined` outside Node, where the fetch
 * transport is used. Its `destroy` frees sockets only once a request has loaded the transport.
 * @throws {WalletConfigError} naming a proxy variable whose value is not a URL.
 */
export function lazyNodeTransport(
  baseUrl: URL,
  options: Omit<RouteOptions, 'env' | 'baseUrl'>,
): NodeConnections | undefined {
  const runtime = nodeRuntime();
  if (!runtime) return undefined;
  proxyFor(baseUrl, runtime.env);
  let loaded: NodeConnections | undefined;
  let loading: Promise<NodeConnections> | undefined;
  const load = () =>
    (loading ??= import('./node-transport.js').then((module) => {
      loaded = module.nodeTransport(runtime, options);
      return loaded;
    }));
  return {
    transport: (request) =>
      loaded ? loaded.transport(request) : load().then((node) => node.transport(request), notLoaded),
    destroy: () => loaded?.destroy(),
  };
}

/** A transport module that failed to load (a broken bundle) sent nothing. */
function notLoaded(): AttemptOutcome {
  return { kind: 'network', ...notSent('the node:http transport could not be loaded') };
}
