import { connect, createServer, type Socket } from 'node:net';

/** A forward proxy on loopback that records what passes through it. */
export interface ForwardProxy {
  /** `http://127.0.0.1:<port>`, as `HTTPS_PROXY`/`HTTP_PROXY` take it. */
  readonly url: string;
  /** The `host:port` of every `CONNECT` tunnel asked for. */
  readonly tunnels: string[];
  /** The request line of every plain request forwarded (absolute form). */
  readonly requestLines: string[];
  /** The head (request line and headers) of every request or `CONNECT` the proxy read. */
  readonly heads: string[];
  /** Every byte the proxy received from clients, tunnelled bytes included, as latin1 text. */
  seen(): string;
  close(): Promise<void>;
}

/**
 * Starts a small forward proxy on 127.0.0.1 at a free port: `CONNECT host:port` opens a tunnel
 * (answered 200, then bytes are piped both ways); a request in absolute form
 * (`GET http://host:port/path HTTP/1.1`) is forwarded to that origin in origin form, and the
 * connection is then piped to it. `refuse` makes it answer every `CONNECT` with that status.
 */
export async function startForwardProxy(options: { refuse?: number } = {}): Promise<ForwardProxy> {
  const tunnels: string[] = [];
  const requestLines: string[] = [];
  const heads: string[] = [];
  const chunks: Buffer[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => {});
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) return;
      client.off('data', onData);
      client.pause();
      const text = head.subarray(0, end + 4).toString('latin1');
      const rest = head.subarray(end + 4);
      heads.push(text);
      const [requestLine = ''] = text.split('\r\n');
      const [method = '', target = ''] = requestLine.split(' ');
      if (method === 'CONNECT') {
        tunnels.push(target);
        if (options.refuse) {
          client.end(`HTTP/1.1 ${options.refuse} Refused\r\ncontent-length: 0\r\n\r\n`);
          return;
        }
        const [host = '', port = ''] = splitAuthority(target);
        const upstream = connect(Number(port), host, () => {
          client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          pipe(client, upstream, rest);
        });
        track(upstream);
        return;
      }
      requestLines.push(requestLine);
      const origin = new URL(target);
      const originForm = text.replace(target, `${origin.pathname}${origin.search}`);
      const upstream = connect(Number(origin.port || 80), origin.hostname, () => {
        upstream.write(originForm);
        pipe(client, upstream, rest);
      });
      track(upstream);
    };
    client.on('data', onData);
  });
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  };
  const pipe = (client: Socket, upstream: Socket, rest: Buffer) => {
    if (rest.length > 0) upstream.write(rest);
    client.on('data', (chunk: Buffer) => chunks.push(chunk));
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    tunnels,
    requestLines,
    heads,
    seen: () => Buffer.concat(chunks).toString('latin1'),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function splitAuthority(authority: string): [string, string] {
  const index = authority.lastIndexOf(':');
  return [authority.slice(0, index).replace(/^\[(.*)\]$/, '$1'), authority.slice(index + 1)];
}
