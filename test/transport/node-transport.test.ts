import { afterEach, expect, test } from 'vitest';
import { nodeRuntime } from '../../src/transport/node-runtime.js';
import { nodeTransport } from '../../src/transport/node-transport.js';
import { type LocalServer, startLocalServer } from '../helpers/http-server.js';

const servers: LocalServer[] = [];

afterEach(async () => {
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

const get = (url: string) => ({
  url: new URL(url),
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
    await node.transport(get(`${first.url}/a`)),
    await node.transport(get(`${second.url}/b`)),
    await node.transport(get(`${first.url}/c`)),
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
