import { readFileSync } from 'node:fs';
import { type HttpHandler, HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { WalletClient, type WalletClientOptions } from '../../src/index.js';

export const BASE_URL = 'https://api.wallet.test';
export const API_KEY = 'sk_test_4f9c2b7e1a';
export const USER_TOKEN = 'utk_live_9d8e7f6a5b';
/** The version package.json declares: the `user-agent` must carry the one being published. */
export const PACKAGE_VERSION: string = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
).version;
/** The `user-agent` every request sends by default on Node. */
export const USER_AGENT = `merchant-wallet/${PACKAGE_VERSION} node/${process.versions.node}`;

export const ROUTES = {
  deposit: { method: 'POST', path: '/merchants/transactions/c2b' },
  withdraw: { method: 'POST', path: '/merchants/transactions/b2c' },
  status: { method: 'GET', path: '/merchants/transactions/status/:id' },
  providers: { method: 'GET', path: '/merchants/accounts/providers' },
} as const;

/** What the mock API saw of one request. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * Framing headers added by the HTTP stack, and the transport's own `accept-encoding` (what it can
 * decompress; test/transport/response-body.test.ts checks it), not by the client; left out of `seen`.
 */
const FRAMING_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'accept-encoding',
]);

/** Every request the handlers below answered, in order; cleared after each test. */
const seen: SeenRequest[] = [];

/** Records a request before it is answered, so it is in `seen` by the time the client's call settles. */
export async function record(request: Request): Promise<void> {
  const entry: SeenRequest = {
    method: request.method,
    url: request.url,
    headers: Object.fromEntries([...request.headers].filter(([name]) => !FRAMING_HEADERS.has(name))),
    body: '',
  };
  seen.push(entry);
  entry.body = await request.clone().text();
}

/**
 * An msw server for the API that fails on any request no handler expects; the handlers
 * made by `answer` and `answerInTurn` record what they see in `seen`.
 */
export function useApiServer() {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    server.resetHandlers();
    seen.length = 0;
  });
  afterAll(() => server.close());
  return {
    seen,
    use: (...handlers: HttpHandler[]) => server.use(...handlers),
    client: (options: WalletClientOptions = {}) =>
      new WalletClient({ apiKey: API_KEY, baseUrl: BASE_URL, ...options }),
  };
}

type Route = keyof typeof ROUTES;

/** A handler answering `route` with one fixed response. */
export function answer(route: Route, status: number, body: unknown, headers: Record<string, string> = {}) {
  const { method, path } = ROUTES[route];
  const verb = method === 'POST' ? http.post : http.get;
  return verb(`${BASE_URL}${path}`, async ({ request }) => {
    await record(request);
    return typeof body === 'string'
      ? new HttpResponse(body, { status, headers })
      : HttpResponse.json(body as Record<string, unknown>, { status, headers });
  });
}

/** A handler answering `route` with each response in turn, then failing the test on any extra request. */
export function answerInTurn(route: Route, ...responses: Array<() => Response | Promise<Response>>) {
  const { method, path } = ROUTES[route];
  const verb = method === 'POST' ? http.post : http.get;
  let index = 0;
  return verb(`${BASE_URL}${path}`, async ({ request }) => {
    await record(request);
    const next = responses[index++];
    if (!next) throw new Error(`unexpected request #${index} to ${route}`);
    return next();
  });
}

export const depositResult = {
  transaction_id: 'txn_c2b_001',
  reference_id: 'order-1042',
  transaction_status: 'completed',
  amount: 250,
  currency: 'KES',
};
export const withdrawResult = {
  transaction_id: 'txn_b2c_001',
  reference_id: 'payout-77',
  transaction_status: 'completed',
  amount: 120.5,
  currency: 'KES',
  date_completed: 20261121143005,
};
export const statusResult = {
  transaction_id: 'txn_c2b_001',
  reference_id: 'order-1042',
  transaction_status: 'failed',
  amount: '250.00',
  currency: 'KES',
  failure_reason: 'user cancelled',
};
export const providerList = {
  default_deposit_provider: 'mpesa',
  default_withdraw_provider: 'airtel',
  payment_providers: {
    mobile_payment_providers: [
      { provider_name: 'mpesa', phone_number: '+254700000001' },
      { provider_name: 'airtel', phone_number: '+254730000002' },
    ],
  },
};
