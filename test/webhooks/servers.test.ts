import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { createWebhookHandler, toNodeHandler, type WebhookHandlerOptions } from '../../src/webhooks/index.js';
import {
  completedBody as completed,
  WEBHOOK_TOKEN as TOKEN,
  userAuthorizedBody as userAuthorized,
} from '../helpers/webhook-fixtures.js';

const onTransaction = vi.fn<NonNullable<WebhookHandlerOptions['onTransaction']>>();
const onUserAuthorized = vi.fn<NonNullable<WebhookHandlerOptions['onUserAuthorized']>>();
const options: WebhookHandlerOptions = {
  onTransaction: (...args) => onTransaction(...args),
  onUserAuthorized: (...args) => onUserAuthorized(...args),
  maxBytes: 4096,
  dedupe: false,
};

const servers: Server[] = [];

async function listen(listener: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Sends raw bytes over a real socket and resolves with the status once a response arrives. */
function rawPost(
  url: string,
  chunks: AsyncIterable<Buffer> | Buffer[],
  headers: Record<string, string> = {},
) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(`${url}/hook`, { method: 'POST', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    (async () => {
      for await (const chunk of chunks) {
        if (req.destroyed) return;
        req.write(chunk);
      }
      req.end();
    })().catch(() => undefined);
  });
}

async function* endless(): AsyncGenerator<Buffer> {
  for (let i = 0; i < 10_000; i += 1) {
    yield Buffer.alloc(1024, 0x20);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

let nodeUrl: string;
let parsedUrl: string;
let honoUrl: string;
const app = new Hono();

beforeAll(async () => {
  const handler = createWebhookHandler(options);
  nodeUrl = await listen(toNodeHandler(handler));

  // Stands in for Express body parsers (json(), text(), raw()) that read the stream first.
  const nodeHandler = toNodeHandler(handler);
  parsedUrl = await listen((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const kind = req.headers['x-parser'];
      const body = kind === 'json' ? JSON.parse(raw.toString()) : kind === 'text' ? raw.toString() : raw;
      void nodeHandler(Object.assign(req, { body }), res);
    });
  });

  app.post('/hook', (c) => handler(c.req.raw));
  honoUrl = await listen(toNodeHandler((request) => Promise.resolve(app.fetch(request))));
});

afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

describe('toNodeHandler in a node:http server', () => {
  test('delivers a real HTTP webhook to the callback and answers 200', async () => {
    onTransaction.mockClear();
    const response = await fetch(`${nodeUrl}/hook`, { method: 'POST', body: JSON.stringify(completed) });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true });
    expect(onTransaction).toHaveBeenCalledWith(
      { ...completed, type: 'transaction' },
      expect.objectContaining({ verified: false }),
    );
    const [, context] = onTransaction.mock.calls[0]!;
    expect(new URL(context.request.url).pathname).toBe('/hook');
    expect(context.request.headers.get('host')).toBe(new URL(nodeUrl).host);
  });

  test('answers 405 with Allow: POST to a GET', async () => {
    const response = await fetch(`${nodeUrl}/hook`);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });

  test('answers 400 to a body that is not JSON', async () => {
    const response = await fetch(`${nodeUrl}/hook`, { method: 'POST', body: 'not json' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_json' });
  });

  test('answers 500 when the callback throws, without its message', async () => {
    onUserAuthorized.mockRejectedValueOnce(new Error(`cannot store ${TOKEN}`));
    const response = await fetch(`${nodeUrl}/hook`, { method: 'POST', body: JSON.stringify(userAuthorized) });
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain(TOKEN);
  });

  test('answers 413 at once to a declared Content-Length over the limit', async () => {
    const result = await rawPost(nodeUrl, [Buffer.alloc(10)], { 'content-length': '100000' });
    expect(result.status).toBe(413);
    expect(JSON.parse(result.body)).toMatchObject({ error: 'too_large' });
  });

  test('answers 413 to an endless chunked body without waiting for its end', async () => {
    onTransaction.mockClear();
    const result = await rawPost(nodeUrl, endless());
    expect(result.status).toBe(413);
    expect(onTransaction).not.toHaveBeenCalled();
  });

  test('a sender that disconnects mid-body gets no callback, and the server keeps serving', async () => {
    onTransaction.mockClear();
    await new Promise<void>((resolve) => {
      const req = httpRequest(`${nodeUrl}/hook`, { method: 'POST', headers: { 'content-length': '1000' } });
      req.on('error', () => resolve());
      req.write('{"transaction_id":"tx_9",', () => setTimeout(() => req.destroy(), 20));
      req.on('close', () => resolve());
    });
    const response = await fetch(`${nodeUrl}/hook`, { method: 'POST', body: JSON.stringify(completed) });
    expect(response.status).toBe(200);
    expect(onTransaction).toHaveBeenCalledTimes(1);
  });

  test.each(['json', 'text', 'raw'])('uses req.body left by an Express-style %s parser', async (parser) => {
    onTransaction.mockClear();
    const response = await fetch(`${parsedUrl}/hook`, {
      method: 'POST',
      body: JSON.stringify({ ...completed, extra: parser }),
      headers: { 'x-parser': parser },
    });
    expect(response.status).toBe(200);
    expect(onTransaction.mock.calls[0]?.[0]).toMatchObject({ extra: parser });
  });

  test('applies the size limit to an already-parsed body too', async () => {
    const response = await fetch(`${parsedUrl}/hook`, {
      method: 'POST',
      body: JSON.stringify({ ...completed, note: 'x'.repeat(5000) }),
      headers: { 'x-parser': 'json' },
    });
    expect(response.status).toBe(413);
  });
});

describe('createWebhookHandler in a Hono app', () => {
  test('handles a request through app.request()', async () => {
    onUserAuthorized.mockClear();
    const response = await app.request('/hook', { method: 'POST', body: JSON.stringify(userAuthorized) });
    expect(response.status).toBe(200);
    expect(onUserAuthorized).toHaveBeenCalledWith(
      { ...userAuthorized, type: 'user_authorized' },
      expect.anything(),
    );
  });

  test('receives real HTTP through a server', async () => {
    onTransaction.mockClear();
    const ok = await fetch(`${honoUrl}/hook`, { method: 'POST', body: JSON.stringify(completed) });
    expect(ok.status).toBe(200);
    expect(onTransaction).toHaveBeenCalledTimes(1);
    const bad = await fetch(`${honoUrl}/hook`, { method: 'POST', body: JSON.stringify({ event: 'nope' }) });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: 'unknown_event' });
  });
});
