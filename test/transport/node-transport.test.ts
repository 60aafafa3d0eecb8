import { afterEach, expect, test, vi } from 'vitest';
import { lazyNodeTransport } from '../../src/transport/lazy-node-transport.js';
import { nodeRuntime } from '../../src/transport/node-runtime.js';
import { nodeTransport } from '../../src/transport/node-transport.js';
import { type LocalServer, startLocalServer } from '../helpers/http-server.js';

const servers: LocalServer[] = [];

afterEach(async () => {
  vi.doUnmock('../../src/transport/node-transport.js');
  vi.resetModules();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function named(name: string) {
  const sockets = new Set<import('node:net').Socket>();
  const server = await startLocalServer((request, response) => {
    sockets.add(request.socket);
    response.end(name);
  });
  servers.push(server);
  return { url: server.url, open: () => [...sockets].filter((socket) => !socket.destroyed).length };
}

/** A GET of `path` under `base`, which must end with `/`. */
const get = (base: string, path: string) => ({
  baseUrl: new URL(base),
  path,
  method: 'GET' as const,
  headers: {},
  body: undefined,
  timeoutMs: 5_000,
  signal: undefined,
  maxResponseBytes: 1_048_576,
});

test('one transport reaches each origin it is given, and destroy() frees the sockets of all of them', async () => {
  const first = await named('first');
  const second = await named('second');
  const runtime = nodeRuntime();
  if (!runtime) throw new Error('the node transport exists on Node');
  const node = nodeTransport(runtime, { maxSockets: 4, given: undefined });

  const answers = [
    await node.transport(get(`${first.url}/`, 'a')),
    await node.transport(get(`${second.url}/`, 'b')),
    await node.transport(get(`${first.url}/`, 'c')),
  ];
  expect(answers.map((answer) => (answer.kind === 'response' ? answer.text : answer.kind))).toEqual([
    'first',
    'second',
    'first',
  ]);
  expect([first.open(), second.open()]).toEqual([1, 1]);

  node.destroy();
  for (let tries = 0; tries < 100 && first.open() + second.open() > 0; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  expect([first.open(), second.open()]).toEqual([0, 0]);
});

test('a request carries the host of its base URL, a body its length in UTF-8 bytes rather than chunks, under the base path', async () => {
  const received: { url?: string | undefined; headers: Record<string, unknown>; body: string }[] = [];
  const server = await startLocalServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      received.push({ url: request.url, headers: request.headers, body });
      response.end('ok');
    });
  });
  servers.push(server);
  const runtime = nodeRuntime();
  if (!runtime) throw new Error('the node transport exists on Node');
  const node = nodeTransport(runtime, { maxSockets: 1, given: undefined });
  const body = JSON.stringify({ description: 'café €5' });

  await node.transport({ ...get(`${server.url}/api/v1/`, 'merchants/x'), method: 'POST', body });
  node.destroy();

  expect(received).toEqual([
    {
      url: '/api/v1/merchants/x',
      headers: expect.objectContaining({
        host: new URL(server.url).host,
        'content-length': String(Buffer.byteLength(body)),
      }),
      body,
    },
  ]);
  expect(received[0]?.headers).not.toHaveProperty('transfer-encoding');
});

test('the lazily loaded transport: requests made while it loads, and after, share one connection that destroy() frees', async () => {
  const server = await named('ok');
  const node = lazyNodeTransport(new URL(server.url), { maxSockets: 1, given: undefined });
  if (!node) throw new Error('the node transport exists on Node');
  expect(server.open()).toBe(0);

  // Both start before the module has loaded; the third comes after.
  const first = await Promise.all([
    node.transport(get(`${server.url}/`, 'a')),
    node.transport(get(`${server.url}/`, 'b')),
  ]);
  const third = await node.transport(get(`${server.url}/`, 'c'));

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

test('a transport module that cannot be loaded fails the attempt as not sent, and the next request loads it again', async () => {
  const server = await named('loaded');
  let imports = 0;
  vi.doMock('../../src/transport/node-transport.js', async () => {
    imports += 1;
    if (imports === 1) throw new Error('chunk missing');
    return vi.importActual('../../src/transport/node-transport.js');
  });
  const { lazyNodeTransport: freshLoader } = await import('../../src/transport/lazy-node-transport.js');
  const node = freshLoader(new URL(server.url), { maxSockets: 1, given: undefined });

  await expect(node?.transport(get(`${server.url}/`, 'a'))).resolves.toEqual({
    kind: 'network',
    maybeSent: false,
    redirect: false,
    staleSocket: false,
    // The cause's message follows (vitest wraps the factory's error in its own).
    description: expect.stringMatching(/^the node:http transport could not be loaded: ./),
  });
  expect(server.open()).toBe(0);
  await expect(node?.transport(get(`${server.url}/`, 'b'))).resolves.toMatchObject({
    kind: 'response',
    text: 'loaded',
  });
  node?.destroy();
});

test.each([
  ['Bun', () => vi.stubGlobal('process', { ...process, versions: { ...process.versions, bun: '1.2.0' } })],
  ['Deno', () => vi.stubGlobal('Deno', {})],
  ['Cloudflare Workers', () => vi.stubGlobal('navigator', { userAgent: 'Cloudflare-Workers' })],
])('on %s, whose node:http is emulated, the fetch transport is used', (_runtime, emulate) => {
  expect(nodeRuntime()).toBeDefined();
  emulate();
  try {
    expect(nodeRuntime()).toBeUndefined();
  } finally {
    vi.unstubAllGlobals();
  }
});
