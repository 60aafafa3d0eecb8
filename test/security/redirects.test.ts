import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { WalletClient, WalletConnectionError, WalletOutcomeUnknownError } from '../../src/index.js';
import { TRANSPORTS } from '../faults/harness.js';
import { rejectionOf } from '../helpers/error-fixtures.js';
import { type LocalServer, startLocalServer } from '../helpers/http-server.js';

const API_KEY = 'sk_redirect_secret_1';
const TOKEN = 'tok_redirect_secret_1';
const STATUSES = [301, 302, 303, 307, 308] as const;
const CALLS = {
  deposit: (c: WalletClient) =>
    c.deposit({ reference_id: 'redir-1', amount: 1, currency: 'KES' }, { userToken: TOKEN }),
  withdraw: (c: WalletClient) =>
    c.withdraw({ reference_id: 'redir-2', email: 'a@example.com', amount: 1, currency: 'KES' }),
  status: (c: WalletClient) => c.getTransaction('txn_1'),
  providers: (c: WalletClient) => c.listProviders({ userToken: TOKEN }),
} as const;

const reachedOther: { url: string; headers: IncomingHttpHeaders }[] = [];
let apiRequests = 0;
let redirectStatus = 302;
let other: LocalServer;
let api: LocalServer;

beforeAll(async () => {
  other = await startLocalServer((request, response) => {
    reachedOther.push({ url: request.url ?? '', headers: request.headers });
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  api = await startLocalServer((request, response) => {
    apiRequests += 1;
    request.resume();
    response.writeHead(redirectStatus, { location: `${other.url}/collect${request.url}` }).end();
  });
});
afterAll(async () => {
  await Promise.all([api.close(), other.close()]);
});
beforeEach(() => {
  vi.spyOn(Math, 'random').mockReturnValue(0);
  reachedOther.length = 0;
  apiRequests = 0;
});

describe.each(Object.keys(TRANSPORTS) as (keyof typeof TRANSPORTS)[])(
  'over the %s transport',
  (transport) => {
    describe.each(STATUSES)('a %i redirect to another origin', (status) => {
      test.each(['status', 'providers'] as const)(
        'from %s is refused without retry and nothing reaches the other origin',
        async (endpoint) => {
          redirectStatus = status;
          const client = new WalletClient({ apiKey: API_KEY, baseUrl: api.url, ...TRANSPORTS[transport] });

          const error = await rejectionOf(CALLS[endpoint](client));

          expect(error).toBeInstanceOf(WalletConnectionError);
          expect(error).toMatchObject({ endpoint, attempts: 1 });
          expect((error as Error).message).toContain('redirect');
          expect(apiRequests).toBe(1);
          expect(reachedOther).toEqual([]);
        },
      );

      test.each([
        ['deposit', 'redir-1'],
        ['withdraw', 'redir-2'],
      ] as const)(
        'from %s is never followed: retried under the same reference id, then WalletOutcomeUnknownError naming it',
        async (endpoint, referenceId) => {
          redirectStatus = status;
          const client = new WalletClient({ apiKey: API_KEY, baseUrl: api.url, ...TRANSPORTS[transport] });

          const error = await rejectionOf(CALLS[endpoint](client));

          // The redirect came after the request was sent, so it may have been applied.
          expect(error).toBeInstanceOf(WalletOutcomeUnknownError);
          expect(error).toMatchObject({ endpoint, referenceId, attempts: 3 });
          expect((error as Error).cause).toBeInstanceOf(WalletConnectionError);
          expect(((error as Error).cause as Error).message).toContain('redirect');
          expect(apiRequests).toBe(3);
          expect(reachedOther).toEqual([]);
        },
      );
    });
  },
);
