import { afterEach, expect, test, vi } from 'vitest';
import type { AttemptRequest } from '../../src/transport/attempt.js';
import { fetchTransport } from '../../src/transport/fetch-transport.js';

const request = (method: 'GET' | 'POST'): AttemptRequest => ({
  baseUrl: new URL('http://127.0.0.1:9/'),
  path: 'x',
  method,
  headers: {},
  body: method === 'POST' ? '{}' : undefined,
  timeoutMs: 1_000,
  signal: undefined,
  maxResponseBytes: 1_048_576,
});

function recordingFetch(clients: unknown[]): typeof globalThis.fetch {
  return async (_input, init) => {
    clients.push((init as { client?: unknown } | undefined)?.client);
    return new Response('{}');
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

test('on Deno, POSTs use one client that keeps no idle connection; GETs keep the pool', async () => {
  // Deno's fetch re-sends a request on its own when a reused connection closes before the answer.
  const client = { pool: 'none' };
  const createHttpClient = vi.fn(() => client);
  vi.stubGlobal('Deno', { createHttpClient });
  const clients: unknown[] = [];
  const transport = fetchTransport(recordingFetch(clients));
  for (const method of ['POST', 'GET', 'POST'] as const) {
    expect((await transport(request(method))).kind).toBe('response');
  }
  expect(clients).toEqual([client, undefined, client]);
  expect(createHttpClient.mock.calls).toEqual([[{ poolMaxIdlePerHost: 0 }]]);
});

test('elsewhere fetch gets no client option', async () => {
  const clients: unknown[] = [];
  const transport = fetchTransport(recordingFetch(clients));
  await transport(request('POST'));
  expect(clients).toEqual([undefined]);
});
