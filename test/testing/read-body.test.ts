import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { readBody } from '../../src/testing/serve/read-body.js';

/** A server that reads one request's body with `limit`; `read` is what the read gave. */
function bodyServer(limit: number) {
  let resolveRead: (result: { bytes?: Uint8Array; error?: unknown }) => void = () => {};
  const read = new Promise<{ bytes?: Uint8Array; error?: unknown }>((resolve) => {
    resolveRead = resolve;
  });
  const server = createServer((req, res) => {
    readBody(req, limit).then(
      (bytes) => {
        resolveRead({ bytes });
        res.end('ok');
      },
      (error: unknown) => resolveRead({ error }),
    );
  });
  return { server, read };
}

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

async function listen(limit: number) {
  const running = bodyServer(limit);
  server = running.server;
  await new Promise<void>((resolve) => running.server.listen(0, '127.0.0.1', resolve));
  return { ...running, port: (running.server.address() as AddressInfo).port };
}

/** Sends a POST with `content-length: declared` and `sent` as much of its body, then keeps or drops the socket. */
async function post(port: number, declared: number, sent: string, drop: boolean) {
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(`POST / HTTP/1.1\r\nhost: x\r\ncontent-length: ${declared}\r\n\r\n${sent}`);
  if (drop) {
    await new Promise((resolve) => setTimeout(resolve, 30));
    socket.destroy();
  }
  return socket;
}

/** Bodies sent whole, by the limit they are read with, and what the read must give. */
const WHOLE_BODIES = [
  { name: 'whole, when it is within the limit', limit: 100, sent: 'hello world', read: 'hello world' },
  {
    name: 'up to one byte past the limit, the rest drained, so an oversized body can be told apart',
    limit: 4,
    sent: 'hello world',
    read: 'hello',
  },
  { name: 'as empty when there is none', limit: 4, sent: '', read: '' },
];

describe('the sandbox server reads a request body', () => {
  test.each(WHOLE_BODIES)('$name', async ({ limit, sent, read }) => {
    const running = await listen(limit);
    const socket = await post(running.port, sent.length, sent, false);
    const { bytes } = await running.read;
    expect(Buffer.from(bytes ?? []).toString()).toBe(read);
    socket.destroy();
  });

  test('in several chunks, joined in order', async () => {
    const running = await listen(100);
    const socket = await post(running.port, 10, 'first', false);
    await new Promise((resolve) => setTimeout(resolve, 20));
    socket.write('-last');
    const { bytes } = await running.read;
    expect(Buffer.from(bytes ?? []).toString()).toBe('first-last');
    socket.destroy();
  });

  test('and refuses it when the client goes away before the body ends, so the read never hangs', async () => {
    const running = await listen(100);
    await post(running.port, 11, 'hello', true);
    const { bytes, error } = await running.read;
    expect(bytes).toBeUndefined();
    expect(error).toBeInstanceOf(Error);
  });
});
