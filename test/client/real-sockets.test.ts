import type { IncomingMessage } from 'node:http';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { WalletClient, WalletConnectionError, WalletOutcomeUnknownError } from '../../src/index.js';
import { API_KEY, depositResult, USER_TOKEN } from '../helpers/api-server.js';
import { closedPortUrl, type LocalServer, startLocalServer } from '../helpers/http-server.js';

const deposit = { reference_id: 'order-1042', amount: 250, currency: 'KES' };
const servers: LocalServer[] = [];

async function serve(...args: Parameters<typeof startLocalServer>): Promise<LocalServer> {
  const server = await startLocalServer(...args);
  servers.push(server);
  return server;
}

beforeEach(() => {
  vi.spyOn(Math, 'random').mockReturnValue(0);
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('over real sockets', () => {
  test('a deposit to a port where nothing listens is a WalletConnectionError: it was never sent', async () => {
    const client = new WalletClient({ apiKey: API_KEY, baseUrl: await closedPortUrl() });

    const error = await client.deposit(deposit, { userToken: USER_TOKEN }).catch((e) => e);

    expect(error).toBeInstanceOf(WalletConnectionError);
    expect(error).not.toBeInstanceOf(WalletOutcomeUnknownError);
    expect(error).toMatchObject({ attempts: 3 });
    expect(error.message).toContain('ECONNREFUSED');
  });

  test('a deposit whose connection is reset after the server read it ends unknown', async () => {
    let requests = 0;
    const server = await serve((request) => {
      requests += 1;
      request.resume();
      request.on('end', () => request.socket.destroy());
    });
    const client = new WalletClient({ apiKey: API_KEY, baseUrl: server.url, maxRetries: 1 });

    const error = await client.deposit(deposit, { userToken: USER_TOKEN }).catch((e) => e);

    expect(error).toBeInstanceOf(WalletOutcomeUnknownError);
    expect(requests).toBe(2);
  });

  test('a response cut in the middle of its body is retried and the retry succeeds', async () => {
    let requests = 0;
    const server = await serve((_request, response) => {
      requests += 1;
      if (requests === 1) {
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
        response.write('{"transaction_id":');
        setTimeout(() => response.socket?.destroy(), 5);
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(depositResult));
    });
    const client = new WalletClient({ apiKey: API_KEY, baseUrl: server.url });

    await expect(client.deposit(deposit, { userToken: USER_TOKEN })).resolves.toEqual(depositResult);
    expect(requests).toBe(2);
  });

  test('a redirect is refused, not retried, and the API key never reaches the other host', async () => {
    const seenByOther: IncomingMessage['headers'][] = [];
    const other = await serve((request, response) => {
      seenByOther.push(request.headers);
      response.end('{}');
    });
    let requests = 0;
    const api = await serve((_request, response) => {
      requests += 1;
      response.writeHead(307, { location: `${other.url}/steal` });
      response.end();
    });
    const client = new WalletClient({ apiKey: API_KEY, baseUrl: api.url });

    const error = await client.getTransaction('txn_1').catch((e) => e);

    expect(error).toBeInstanceOf(WalletConnectionError);
    expect(error.message).toContain('redirect');
    expect(requests).toBe(1);
    expect(seenByOther).toHaveLength(0);
  });
});
