import type * as Http from 'node:http';
import type * as Https from 'node:https';
import type * as Stream from 'node:stream';
import type * as Tls from 'node:tls';

/** `Proxy-Authorization` for a proxy URL with credentials, or nothing. */
export function proxyAuthorization(proxy: URL): Record<string, string> {
  if (!proxy.username && !proxy.password) return {};
  const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return { 'proxy-authorization': `Basic ${Buffer.from(credentials).toString('base64')}` };
}

/**
 * A keep-alive `https.Agent` whose connections are TLS sessions inside an HTTP `CONNECT` tunnel
 * through `proxy`: the proxy sees the target host and port, never the request, its headers or the
 * API key. Sockets are pooled as usual, so a tunnel is opened per connection, not per request.
 */
export function createTunnelAgent(
  modules: { http: typeof Http; https: typeof Https; tls: typeof Tls },
  proxy: URL,
  options: Https.AgentOptions,
): Https.Agent {
  const viaTls = proxy.protocol === 'https:';
  const closed = () => new Error('unable to connect through the proxy: the client is closed');
  class TunnelAgent extends modules.https.Agent {
    /** CONNECT requests not answered yet: the agent's sockets do not include them, so destroy() must. */
    readonly #pending = new Set<Http.ClientRequest>();
    #destroyed = false;

    override destroy(): void {
      this.#destroyed = true;
      for (const connect of this.#pending) connect.destroy(closed());
      this.#pending.clear();
      super.destroy();
    }

    // Node's Agent waits for the callback when createConnection returns nothing.
    override createConnection(
      requested: Http.RequestOptions,
      callback?: (error: Error | null, socket: Stream.Duplex) => void,
    ): undefined {
      if (this.#destroyed) {
        callback?.(closed(), undefined as unknown as Stream.Duplex);
        return undefined;
      }
      // The request's own path and address are not TLS options: the tunnel is the transport.
      const { host = '', port, path: _path, ...tlsOptions } = requested as Tls.ConnectionOptions;
      const authority = `${host.includes(':') ? `[${host}]` : host}:${port}`;
      const connect = (viaTls ? modules.https : modules.http).request({
        host: proxy.hostname.replace(/^\[|\]$/g, ''),
        port: proxy.port || (viaTls ? 443 : 80),
        method: 'CONNECT',
        path: authority,
        headers: { host: authority, ...proxyAuthorization(proxy) },
        agent: false,
      });
      this.#pending.add(connect);
      connect.once('connect', ({ statusCode }, socket) => {
        this.#pending.delete(connect);
        // A tunnel that opens after close() is never handed to a pool that no one will empty.
        if (this.#destroyed) {
          socket.destroy();
          return callback?.(closed(), socket);
        }
        if (statusCode === 200) return callback?.(null, modules.tls.connect({ ...tlsOptions, socket }));
        socket.destroy();
        // "unable to connect" marks the request as never sent (see network-failure.ts).
        callback?.(
          new Error(`unable to connect through the proxy: CONNECT answered HTTP ${statusCode}`),
          socket,
        );
      });
      connect.once('error', (error) => {
        this.#pending.delete(connect);
        callback?.(error, connect.socket as Stream.Duplex);
      });
      connect.end();
      return undefined;
    }
  }
  return new TunnelAgent(options);
}
