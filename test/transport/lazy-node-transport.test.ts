import type { Socket } from 'node:net';
import { afterEach, expect, test, vi } from 'vitest';
import { lazyNodeTransport } from '../../src/transport/lazy-node-transport.js';
import { type LocalServer, startLocalServer } from '../helpers/http-server.js';

const servers: LocalServer[] = [];

afterEach(async () => {
  vi.doUnmock('../../src/transport/node-transport.js');
  vi.resetModules();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function countingServer() {
  const sockets = new Set<Socket>();
  const server = await startLocalServer((request, response) => {
    sockets.add(request.socket);
    response.end('ok');
  });
  servers.push(server);
  return { url: server.url, open: () => [...sockets].filter((socket) => !socket.destroyed).length };
}

const get = (url: string) => ({
  url: new URL(url),
  method: 'GET' as const,
  headers: {},
  body: undefined,
  timeoutMs: 5_000,
  signal: undefined,
  maxResponseBytes: 1_048_576,
});

test('requests made while the transport loads, and after, share one keep-alive connection that destroy() frees', async () => {
  const server = await countingServer();
  const node = lazyNodeTransport(new URL(server.url), { maxSockets: 1, given: undefined });
  if (!node) throw new Error('the node transport exists on Node');

  // Both start before the module has loaded; the third comes after.
  const first = await Promise.all([
    node.transport(get(`${server.url}/a`)),
    node.transport(get(`${server.url}/b`)),
  ]);
  const third = await node.transport(get(`${server.url}/c`));

  expect(
    [...first, third].map((outcome) => (outcome.kind === 'response' ? outcome.text : outcome.kind)),
  ).toEqual(['ok', 'ok', 'ok']);
  expect(server.open()).toBe(1);
  node.destroy();
  for (let tries = 0; tries < 100 && server.open() > 0; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  expect(server.open()).toBe(0);
});

test('destroy() before any request is harmless, and nothing is dialled', async () => {
  const server = await countingServer();
  const node = lazyNodeTransport(new URL(server.url), { maxSockets: 1, given: undefined });

  expect(() => node?.destroy()).not.toThrow();
  expect(server.open()).toBe(0);
});

test('a transport module that cannot be loaded ends the attempt as a network failure that sent nothing', async () => {
  vi.doMock('../../src/transport/node-transport.js', () => {
    throw new Error('chunk missing');
  });
  const { lazyNodeTransport: freshLoader } = await import('../../src/transport/lazy-node-transport.js');
  const node = freshLoader(new URL('http://127.0.0.1:1'), { maxSockets: 1, given: undefined });

  await expect(node?.transport(get('http://127.0.0.1:1/a'))).resolves.toEqual({
    kind: 'network',
    maybeSent: false,
    redirect: false,
    staleSocket: false,
    description: 'the node:http transport could not be loaded',
  });
});
