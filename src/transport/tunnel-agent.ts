import type * as Http from 'node:http';
import type * as Https from 'node:https';
import type * as Stream from 'node:stream';
import type * as Tls from 'node:tls';

/** The Node modules a tunnel is made of. */
export interface TunnelModules {
  readonly http: typeof Http;
  readonly https: typeof Https;
  readonly tls: typeof Tls;
}

/** `Proxy-Authorization` for a proxy URL with credentials, or nothing. */
export function proxyAuthorization(proxy: URL): Record<string, string> {
  if (!proxy.username && !proxy.password) return {};
  const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return { 'proxy-authorization': `Basic ${Buffer.from(credentials).toString('base64')}` };
}

type ConnectionCallback = (error: Error | null, socket: Stream.Duplex) => void;

/**
 * A keep-alive `https.Agent` whose connections are TLS sessions inside an HTTP `CONNECT` tunnel
 * through `proxy`: the proxy sees the target host and port, never the request, its headers or the
 * API key. Sockets are pooled as usual, so a tunnel is opened once per connection, not per request.
 */
export function createTunnelAgent(
  modules: TunnelModules,
  proxy: URL,
  options: Https.AgentOptions,
): Https.Agent {
  const connectVia = proxy.protocol === 'https:' ? modules.https : modules.http;
  class TunnelAgent extends modules.https.Agent {
    // Node's Agent takes the socket from the callback when createConnection returns nothing.
    override createConnection(requested: Http.RequestOptions, callback?: ConnectionCallback): undefined {
      const options = requested as Tls.ConnectionOptions & { host: string; port: number };
      const authority = `${options.host.includes(':') ? `[${options.host}]` : options.host}:${options.port}`;
      const connect = connectVia.request({
        host: proxy.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: proxy.port || (proxy.protocol === 'https:' ? 443 : 80),
        method: 'CONNECT',
        path: authority,
        headers: { host: authority, ...proxyAuthorization(proxy) },
        agent: false,
      });
      connect.once('connect', (response, socket) => {
        if (response.statusCode !== 200) {
          socket.destroy();
          callback?.(
            new Error(
              `unable to connect through the proxy: CONNECT answered HTTP ${response.statusCode ?? 0}`,
            ),
            socket,
          );
          return;
        }
        // The request's own path and address are not TLS options; the tunnel is the transport.
        const {
          path: _path,
          host: _host,
          port: _port,
          ...tlsOptions
        } = options as typeof options & {
          path?: unknown;
        };
        callback?.(null, modules.tls.connect({ ...tlsOptions, socket }));
      });
      connect.once('error', (error) => callback?.(error, connect.socket as Stream.Duplex));
      connect.end();
      return undefined;
    }
  }
  return new TunnelAgent(options);
}
