import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { WalletClient, WalletOutcomeUnknownError } from '../../src/index.js';
import { TRANSPORTS } from '../faults/harness.js';
import { depositResult } from '../helpers/api-server.js';
import { rejectionOf } from '../helpers/error-fixtures.js';
import { type LocalServer, startLocalServer } from '../helpers/http-server.js';

let server: LocalServer;
/** Requests the server applied, by reference id, and how many it reset unread. */
let applied: string[] = [];
let resets = 0;
/** Which request on its connection the server resets (2 = the first one on a reused connection). */
let resetNth = 2;

beforeEach(async () => {
  vi.spyOn(Math, 'random').mockReturnValue(0);
  applied = [];
  resets = 0;
  const requestsOn = new WeakMap<Socket, number>();
  server = await startLocalServer((request, response) => {
    const nth = (requestsOn.get(request.socket) ?? 0) + 1;
    requestsOn.set(request.socket, nth);
    // What a request written on a keep-alive connection the server had closed while idle meets:
    // a reset, before the server read or applied anything.
    if (nth === resetNth) {
      resets += 1;
      request.socket.resetAndDestroy();
      return;
    }
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on('end', () => {
      applied.push(JSON.parse(body).reference_id);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ ...depositResult, reference_id: JSON.parse(body).reference_id }));
    });
  });
});
afterEach(() => server.close());

const deposit = (client: WalletClient, referenceId: string) =>
  client.deposit(
    { reference_id: referenceId, amount: depositResult.amount, currency: depositResult.currency },
    { userToken: 'tok_stale_1' },
  );

describe.each(Object.keys(TRANSPORTS) as (keyof typeof TRANSPORTS)[])(
  'over the %s transport',
  (transport) => {
    test('with maxRetries: 0, a deposit reset on a reused keep-alive connection before any answer is retried once and resolves, applied once', async () => {
      const client = new WalletClient({
        apiKey: 'sk_stale_1',
        baseUrl: server.url,
        maxRetries: 0,
        ...TRANSPORTS[transport],
      });
      await deposit(client, 'warm-up');

      for (let call = 1; call <= 10; call++) {
        // Lets the connection of the last answer go back to the pool, as an idle one would be.
        await sleep(20);
        resets = 0;
        await expect(deposit(client, `order-${call}`)).resolves.toMatchObject({
          reference_id: `order-${call}`,
        });
        expect(resets, `call ${call}`).toBe(1);
      }
      expect(applied).toEqual(['warm-up', ...Array.from({ length: 10 }, (_, i) => `order-${i + 1}`)]);
    });

    test('a deposit reset on every attempt still ends WalletOutcomeUnknownError: the stale-connection retry is made once only', async () => {
      resetNth = 1;
      try {
        const client = new WalletClient({
          apiKey: 'sk_stale_1',
          baseUrl: server.url,
          maxRetries: 0,
          ...TRANSPORTS[transport],
        });

        const error = await rejectionOf(deposit(client, 'order-x'));

        expect(error).toBeInstanceOf(WalletOutcomeUnknownError);
        expect(error).toMatchObject({ referenceId: 'order-x' });
        expect(resets).toBe(transport === 'node' ? 1 : 2);
      } finally {
        resetNth = 2;
      }
    });
  },
);
