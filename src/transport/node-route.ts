import type * as Http from 'node:http';
import type * as Https from 'node:https';
import type * as Tls from 'node:tls';
import { type ProxyEnv, proxyFor } from './proxy-env.js';
import { createTunnelAgent, proxyAuthorization } from './tunnel-agent.js';

/** The Node modules the node transport uses. */
export interface NodeModules {
  readonly http: typeof Http;
  readonly https: typeof Https;
  readonly tls: typeof Tls;
}

/** Agents given by the caller (`agent` option); the client never destroys them. */
export interface GivenAgents {
  readonly http?: Http.Agent | undefined;
  readonly https?: Https.Agent | undefined;
}

/**
 * How requests reach one origin, settled once per origin so the hot path only fills in the path: which module and agent, which host and port to dial, and whether requests
 * go in absolute form to a plain-http forward proxy.
 */
export interface NodeRoute {
  readonly request: typeof Http.request;
  readonly agent: Http.Agent;
  readonly hostname: string;
  readonly port: string;
  /** Prefix of the request target: the origin when talking to an http proxy, else empty. */
  readonly targetPrefix: string;
  /**
   * Header names and values, alternating, sent first on every request of this route: the API's
   * `host`, and the credentials of a plain-http proxy.
   */
  readonly headerLines: readonly string[];
  /** The agent this client created and so must destroy on `close()`; none for a given agent. */
  readonly owned: Http.Agent | undefined;
}

/** What decides a route. */
export interface RouteOptions {
  /** The origin the route leads to (only its scheme, host and port are read). */
  readonly baseUrl: URL;
  readonly maxSockets: number;
  readonly given: GivenAgents | undefined;
  readonly env: ProxyEnv;
}

/**
 * The route of a client: a given agent is used as it is (proxying is then its business); otherwise
 * the client owns a keep-alive agent, tunnelled through `HTTPS_PROXY` or sent in absolute form to
 * `HTTP_PROXY` unless `NO_PROXY` exempts the host.
 */
export function nodeRoute(modules: NodeModules, options: RouteOptions): NodeRoute {
  const { baseUrl } = options;
  const secure = baseUrl.protocol === 'https:';
  const request = secure ? modules.https.request : modules.http.request;
  const hostname = unbracket(baseUrl.hostname);
  const port = baseUrl.port;
  // Given explicitly: with headers as a list, Node sends them as they are and adds no `host`.
  const headerLines = ['host', baseUrl.host];
  const direct = { request, hostname, port, targetPrefix: '', headerLines };
  const given = secure ? options.given?.https : options.given?.http;
  if (given) return { ...direct, agent: given, owned: undefined };

  // No socket timeout on the agent: the transport's own per-attempt timer already bounds each call,
  // and a per-socket timer re-armed on every read costs a third of the throughput under load.
  const agentOptions = { keepAlive: true, maxSockets: options.maxSockets };
  const proxy = proxyFor(baseUrl, options.env);
  if (!proxy) {
    const agent = secure ? new modules.https.Agent(agentOptions) : new modules.http.Agent(agentOptions);
    return { ...direct, agent, owned: agent };
  }
  if (secure) {
    const agent = createTunnelAgent(modules, proxy, agentOptions);
    return { ...direct, agent, owned: agent };
  }
  const viaTls = proxy.protocol === 'https:';
  const agent = viaTls ? new modules.https.Agent(agentOptions) : new modules.http.Agent(agentOptions);
  return {
    request: viaTls ? modules.https.request : modules.http.request,
    agent,
    owned: agent,
    hostname: unbracket(proxy.hostname),
    port: proxy.port,
    targetPrefix: baseUrl.origin,
    headerLines: [...headerLines, ...Object.entries(proxyAuthorization(proxy)).flat()],
  };
}

function unbracket(hostname: string): string {
  return hostname.replace(/^\[(.*)\]$/, '$1');
}
