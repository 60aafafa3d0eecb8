import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  WalletApiError,
  WalletClient,
  type WalletClientOptions,
  WalletConnectionError,
  WalletOutcomeUnknownError,
} from '../../src/index.js';
import { TRANSPORTS } from '../faults/harness.js';
import { depositResult, statusResult } from '../helpers/api-server.js';
import { rejectionOf } from '../helpers/error-fixtures.js';
import { type LocalServer, startLocalServer } from '../helpers/http-server.js';

const API_KEY = 'sk_not_applied_1';
const TOKEN = 'tok_not_applied_1';
/** One answer of the scripted server; `undefined` body means none. */
type Script = (request: IncomingMessage, response: ServerResponse, body: string) => void;

/** Every request the server saw: method and the reference id its body carried. */
const seen: { method: string; referenceId: unknown }[] = [];
const servers: LocalServer[] = [];

/** A server answering its n-th request with `scripts[n]` (the last one repeats). */
async function serve(...scripts: Script[]): Promise<LocalServer> {
  const server = await startLocalServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on('end', () => {
      seen.push({
        method: request.method ?? '',
        referenceId: body ? JSON.parse(body).reference_id : undefined,
      });
      const script = scripts[Math.min(seen.length, scripts.length) - 1];
      script?.(request, response, body);
    });
  });
  servers.push(server);
  return server;
}

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Script =>
  (_request, response) =>
    response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

const deposit = (client: WalletClient) =>
  client.deposit(
    {
      reference_id: depositResult.reference_id,
      amount: depositResult.amount,
      currency: depositResult.currency,
    },
    { userToken: TOKEN },
  );

beforeEach(() => {
  vi.spyOn(Math, 'random').mockReturnValue(0);
  seen.length = 0;
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe.each(Object.keys(TRANSPORTS) as (keyof typeof TRANSPORTS)[])(
  'over the %s transport',
  (transport) => {
    const client = (server: LocalServer, options: WalletClientOptions = {}) =>
      new WalletClient({ apiKey: API_KEY, baseUrl: server.url, ...TRANSPORTS[transport], ...options });

    describe.each([301, 302, 303, 307, 308])('a %i redirect', (status) => {
      const redirect: Script = (_request, response) =>
        response.writeHead(status, { location: 'http://127.0.0.1:9/elsewhere' }).end();

      test('answering a deposit on every attempt is retried under the same reference id, then WalletOutcomeUnknownError naming it', async () => {
        const server = await serve(redirect);

        const error = await rejectionOf(deposit(client(server)));

        expect(error).toBeInstanceOf(WalletOutcomeUnknownError);
        expect(error).toMatchObject({ referenceId: 'order-1042', attempts: 3, endpoint: 'deposit' });
        expect((error as Error).message).toContain('"order-1042"');
        expect((error as Error).cause).toBeInstanceOf(WalletConnectionError);
        expect(seen).toEqual(Array(3).fill({ method: 'POST', referenceId: 'order-1042' }));
      });

      test('answering a status read is a WalletConnectionError after one attempt, never followed', async () => {
        const server = await serve(redirect);

        const error = await rejectionOf(client(server).getTransaction(statusResult.transaction_id));

        expect(error).toBeInstanceOf(WalletConnectionError);
        expect(error).toMatchObject({ attempts: 1, endpoint: 'status' });
        expect(seen).toHaveLength(1);
      });
    });

    test('a deposit whose first answer is a redirect and whose retry succeeds resolves, applied once', async () => {
      const server = await serve(
        (_q, response) => response.writeHead(303, { location: '/x' }).end(),
        json(200, depositResult),
      );

      await expect(deposit(client(server))).resolves.toEqual(depositResult);
      expect(seen).toEqual(Array(2).fill({ method: 'POST', referenceId: 'order-1042' }));
    });

    describe.each([
      [500, {}],
      [500, { code: 'internal_server_error', message: 'boom' }],
      [502, {}],
      [503, {}],
      [504, {}],
      [520, {}],
      [521, '<html>origin down</html>'],
      [524, {}],
      [599, {}],
    ] as const)('an HTTP %i answer (body %j) without a business code', (status, body) => {
      test('to a deposit on every attempt may have been applied: 3 attempts under one reference id, then WalletOutcomeUnknownError', async () => {
        const server = await serve(json(status, body));

        const error = await rejectionOf(deposit(client(server)));

        expect(error).toBeInstanceOf(WalletOutcomeUnknownError);
        expect(error).toMatchObject({ referenceId: 'order-1042', attempts: 3 });
        expect((error as Error).cause).toMatchObject({ status });
        expect(seen).toEqual(Array(3).fill({ method: 'POST', referenceId: 'order-1042' }));
      });

      test('to a deposit once is retried and the retry resolves', async () => {
        const server = await serve(json(status, body), json(200, depositResult));

        await expect(deposit(client(server))).resolves.toEqual(depositResult);
        expect(seen).toHaveLength(2);
      });

      test('to a status read on every attempt is retried, then a WalletApiError with that status', async () => {
        const server = await serve(json(status, body));

        const error = await rejectionOf(client(server).getTransaction(statusResult.transaction_id));

        expect(error).toBeInstanceOf(WalletApiError);
        expect(error).toMatchObject({ status, endpoint: 'status' });
        expect(seen).toHaveLength(3);
      });

      test('to a status read once is retried and the retry resolves', async () => {
        const server = await serve(json(status, body), json(200, statusResult));

        await expect(client(server).getTransaction(statusResult.transaction_id)).resolves.toEqual(
          statusResult,
        );
      });
    });

    test.each([
      [400, {}],
      [404, '<html>not here</html>'],
      [409, { code: 'internal_server_error' }],
      [422, {}],
    ] as const)(
      'a deposit answered %i (%j) was not applied: a plain WalletApiError after one attempt',
      async (status, body) => {
        const server = await serve(json(status, body));

        const error = await rejectionOf(deposit(client(server)));

        expect(error).toBeInstanceOf(WalletApiError);
        expect(error).not.toBeInstanceOf(WalletOutcomeUnknownError);
        expect(error).toMatchObject({ status });
        expect(seen).toHaveLength(1);
      },
    );

    test('a deposit answered 429 on every attempt was not applied: retried, then a plain WalletApiError', async () => {
      const server = await serve(json(429, {}));

      const error = await rejectionOf(deposit(client(server)));

      expect(error).toBeInstanceOf(WalletApiError);
      expect(error).toMatchObject({ status: 429 });
      expect(seen).toHaveLength(3);
    });

    test.each([
      [502, 'psp_error'],
      [503, 'merchant_not_active'],
      [524, 'insufficient_balance'],
    ] as const)(
      'a deposit answered %i with the business code %s was not applied: final after one attempt',
      async (status, code) => {
        const server = await serve(json(status, { code, message: 'refused' }));

        const error = await rejectionOf(deposit(client(server)));

        expect(error).toBeInstanceOf(WalletApiError);
        expect(error).not.toBeInstanceOf(WalletOutcomeUnknownError);
        expect(error).toMatchObject({ status, code });
        expect(seen).toHaveLength(1);
      },
    );

    test('a deposit answered 520, then reference_already_used, ends unknown: the first attempt was applied', async () => {
      const server = await serve(json(520, {}), json(400, { code: 'reference_already_used' }));

      const error = await rejectionOf(deposit(client(server)));

      expect(error).toBeInstanceOf(WalletOutcomeUnknownError);
      expect(error).toMatchObject({ referenceId: 'order-1042', attempts: 2 });
    });
  },
);
