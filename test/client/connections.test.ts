import type { Socket } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { WalletClient, WalletConfigError } from '../../src/index.js';
import { API_KEY, statusResult, USER_TOKEN } from '../helpers/api-server.js';
import { type LocalServer, startLocalServer } from '../helpers/http-server.js';

const servers: LocalServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A status API that answers after `delayMs`, counting connections and requests at once. */
async function statusApi(delayMs = 0) {
  const sockets = new Set<Socket>();
  const counts = { requests: 0, inFlight: 0, mostInFlight: 0, connections: 0 };
  const server = await startLocalServer((request, response) => {
    counts.requests += 1;
    counts.inFlight += 1;
    counts.mostInFlight = Math.max(counts.mostInFlight, counts.inFlight);
    if (!sockets.has(request.socket)) {
      sockets.add(request.socket);
      counts.connections += 1;
    }
    setTimeout(() => {
      counts.inFlight -= 1;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(statusResult));
    }, delayMs);
  });
  servers.push(server);
  const open = () => [...sockets].filter((socket) => !socket.destroyed).length;
  return { url: server.url, counts, open };
}

const until = async (condition: () => boolean) => {
  for (let tries = 0; tries < 200 && !condition(); tries++) await new Promise((r) => setTimeout(r, 5));
};

describe('the client’s own keep-alive agent', () => {
  test('sequential calls reuse one connection', async () => {
    const api = await statusApi();
    const wallet = new WalletClient({ apiKey: API_KEY, baseUrl: api.url });

    for (let call = 0; call < 5; call++) await wallet.getTransaction(statusResult.transaction_id);
    await wallet.close();

    expect(api.counts).toMatchObject({ requests: 5, connections: 1 });
  });

  test('maxSockets bounds the connections of concurrent calls; the rest wait their turn', async () => {
    const api = await statusApi(20);
    const wallet = new WalletClient({ apiKey: API_KEY, baseUrl: api.url, maxSockets: 2 });

    const results = await Promise.all(
      Array.from({ length: 6 }, () => wallet.getTransaction(statusResult.transaction_id)),
    );
    await wallet.close();

    expect(results).toHaveLength(6);
    expect(api.counts).toMatchObject({ requests: 6, connections: 2, mostInFlight: 2 });
  });

  test('two clients do not share sockets', async () => {
    const api = await statusApi();
    const first = new WalletClient({ apiKey: API_KEY, baseUrl: api.url });
    const second = new WalletClient({ apiKey: API_KEY, baseUrl: api.url });

    await first.getTransaction(statusResult.transaction_id);
    await second.getTransaction(statusResult.transaction_id);
    await Promise.all([first.close(), second.close()]);

    expect(api.counts.connections).toBe(2);
  });
});

describe('close()', () => {
  test('frees the sockets of the client’s agent', async () => {
    const api = await statusApi();
    const wallet = new WalletClient({ apiKey: API_KEY, baseUrl: api.url });
    await wallet.getTransaction(statusResult.transaction_id);
    expect(api.open()).toBe(1);

    await wallet.close();
    await until(() => api.open() === 0);

    expect(api.open()).toBe(0);
  });

  test('lets a call in flight finish before freeing the sockets', async () => {
    const api = await statusApi(50);
    const wallet = new WalletClient({ apiKey: API_KEY, baseUrl: api.url });

    const call = wallet.getTransaction(statusResult.transaction_id);
    await until(() => api.counts.requests === 1);
    const closed = wallet.close();

    await expect(call).resolves.toEqual(statusResult);
    await closed;
    await until(() => api.open() === 0);
    expect(api.open()).toBe(0);
  });

  test('a call after close() is a WalletConfigError and sends nothing', async () => {
    const api = await statusApi();
    const wallet = new WalletClient({ apiKey: API_KEY, baseUrl: api.url });
    await wallet.close();

    const calls = [
      wallet.getTransaction(statusResult.transaction_id),
      wallet.listProviders({ userToken: USER_TOKEN }),
      wallet.deposit({ reference_id: 'order-1', amount: 10, currency: 'KES' }, { userToken: USER_TOKEN }),
      wallet.withdraw({ email: 'a@example.com', amount: 10, currency: 'KES' }),
    ];

    for (const call of calls) {
      await expect(call).rejects.toThrow(WalletConfigError);
      await expect(call).rejects.toThrow('client: is closed');
    }
    expect(api.counts.requests).toBe(0);
  });

  test('closing twice resolves both times', async () => {
    const wallet = new WalletClient({ apiKey: API_KEY, baseUrl: 'http://127.0.0.1:1' });

    await expect(Promise.all([wallet.close(), wallet.close()])).resolves.toEqual([undefined, undefined]);
  });

  test('await using closes the client at the end of the block', async () => {
    const api = await statusApi();
    let escaped: WalletClient | undefined;
    {
      await using wallet = new WalletClient({ apiKey: API_KEY, baseUrl: api.url });
      escaped = wallet;
      await wallet.getTransaction(statusResult.transaction_id);
    }

    await expect(escaped.getTransaction(statusResult.transaction_id)).rejects.toThrow('client: is closed');
    await until(() => api.open() === 0);
    expect(api.open()).toBe(0);
  });

  test('a client on a given fetch closes too and then refuses calls', async () => {
    const wallet = new WalletClient({
      apiKey: API_KEY,
      baseUrl: 'http://127.0.0.1:1',
      fetch: async () => Response.json(statusResult),
    });
    await expect(wallet.getTransaction(statusResult.transaction_id)).resolves.toEqual(statusResult);

    await wallet.close();

    await expect(wallet.getTransaction(statusResult.transaction_id)).rejects.toThrow(WalletConfigError);
  });
});
