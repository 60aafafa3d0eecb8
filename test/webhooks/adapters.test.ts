import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve as serveWeb } from '@hono/node-server';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { afterEach, describe, expect, test } from 'vitest';
import { createWallet, type Wallet } from '../../src/wallet/index.js';
import {
  fastifyWebhooks,
  toHonoHandler,
  toNodeHandler,
  webRequestFrom,
} from '../../src/webhooks/adapters/index.js';
import { KEYS, TOKENS, useServerTarget } from '../integration/harness.js';

const target = useServerTarget();
const PATH = '/wallet/webhooks';

/** A running server of one framework, serving `wallet`'s webhook endpoint on PATH; answers its base URL. */
type Mount = (wallet: Wallet) => Promise<{ url: string; close: () => Promise<void> }>;

const listening = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

const MOUNTS: Record<string, Mount> = {
  'node:http': (wallet) => listening(createServer(toNodeHandler(wallet.webhooks))),
  'Express, raw body': (wallet) => {
    const app = express();
    app.all(PATH, toNodeHandler(wallet.webhooks));
    return listening(createServer(app));
  },
  'Express behind express.json()': (wallet) => {
    const app = express();
    app.use(express.json());
    app.all(PATH, toNodeHandler(wallet.webhooks));
    return listening(createServer(app));
  },
  Fastify: async (wallet) => {
    const app = Fastify();
    await app.register(fastifyWebhooks(wallet.webhooks));
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    return { url, close: () => app.close() };
  },
  Hono: (wallet) => {
    const app = new Hono();
    app.all(PATH, toHonoHandler(wallet.webhooks));
    return listening(
      createServer(async (req, res) => {
        const body = await new Promise<Buffer>((resolve) => {
          const chunks: Buffer[] = [];
          req
            .on('data', (chunk: Buffer) => chunks.push(chunk))
            .on('end', () => resolve(Buffer.concat(chunks)));
        });
        const response = await app.fetch(
          webRequestFrom({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body }),
        );
        res
          .writeHead(response.status, Object.fromEntries(response.headers))
          .end(Buffer.from(await response.arrayBuffer()));
      }),
    );
  },
  'web Request/Response (Next.js, Workers, Bun)': async (wallet) => {
    const server = await new Promise<ReturnType<typeof serveWeb>>((resolve) => {
      const started = serveWeb({ fetch: wallet.webhooks, port: 0, hostname: '127.0.0.1' }, () =>
        resolve(started),
      );
    });
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  },
};

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of cleanup.reverse()) await close();
  cleanup = [];
});

describe.each(Object.entries(MOUNTS))('the webhook endpoint on %s, over real HTTP', (_name, mount) => {
  async function started(settled: string[] = []) {
    const wallet = createWallet({
      apiKey: KEYS.demo,
      baseUrl: target().baseUrl,
      logLevel: 'off',
      sweeper: false,
      onSettled: (intent) => void settled.push(intent.referenceId),
    });
    await wallet.start();
    const server = await mount(wallet);
    cleanup.push(() => wallet.close(), server.close);
    return { wallet, hook: `${server.url}${PATH}` };
  }

  test('a pending deposit delivered twice is settled once, with no callback but onSettled', async () => {
    const settled: string[] = [];
    const { wallet, hook } = await started(settled);
    const reference = `order-${crypto.randomUUID()}`;
    const deposit = await wallet.client.deposit(
      { reference_id: reference, amount: 900, currency: 'KES', payment_provider: 'mpesa', webhook_url: hook },
      { userToken: TOKENS.bob },
    );
    target().sandbox.settle(deposit.transaction_id, { status: 'completed', delivery: { mode: 'twice' } });
    await target().sandbox.webhooks.idle();
    expect(settled).toEqual([reference]);
    const deliveries = target()
      .sandbox.webhooks.deliveries()
      .filter((one) => (one.event as { reference_id?: string }).reference_id === reference);
    expect(deliveries.map((one) => one.state)).toEqual(['delivered', 'delivered']);
  });

  test('a forged event is read back once; delivered again, it is answered 503 with Retry-After from the not-found memory', async () => {
    const { hook } = await started();
    const forged = JSON.stringify({
      event: 'transaction',
      transaction_id: `tx_forged_${crypto.randomUUID()}`,
      transaction_status: 'completed',
    });
    const post = () =>
      fetch(hook, { method: 'POST', headers: { 'content-type': 'application/json' }, body: forged });
    const first = await post();
    expect([first.status, first.headers.get('retry-after')]).toEqual([503, null]);
    const again = await post();
    expect(again.status).toBe(503);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThanOrEqual(29);
    expect(await again.json()).toMatchObject({ error: 'verification_failed' });
  });

  test('an empty POST is answered 400, a GET 405, a body over the limit 413', async () => {
    const { hook } = await started();
    const empty = await fetch(hook, { method: 'POST', headers: { 'content-type': 'application/json' } });
    expect(empty.status).toBe(400);
    const get = await fetch(hook);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const large = await fetch(hook, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event: 'transaction', padding: 'x'.repeat(70_000) }),
    });
    expect(large.status).toBe(413);
  });
});

test('webRequestFrom takes Node headers (lists included) and a Buffer body', async () => {
  const request = webRequestFrom({
    method: 'post',
    url: '/hook?x=1',
    headers: {
      host: 'shop.example',
      'x-forwarded-for': ['1.1.1.1', '2.2.2.2'],
      'content-length': 2,
      ':path': '/hook',
    },
    body: Buffer.from('{}'),
  });
  expect([request.method, request.url, request.headers.get('x-forwarded-for')]).toEqual([
    'POST',
    'http://shop.example/hook?x=1',
    '1.1.1.1, 2.2.2.2',
  ]);
  expect(await request.text()).toBe('{}');
});
