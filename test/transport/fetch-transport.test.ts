import { describe, expect, test } from 'vitest';
import { WalletClient, WalletConnectionError, WalletOutcomeUnknownError } from '../../src/index.js';
import { API_KEY, statusResult } from '../helpers/api-server.js';

test('a fetch whose answers are not the global Response class is called once per call and read through text()', async () => {
  const calls: string[] = [];
  // A fetch from another realm or library answers with its own Response class.
  const foreignFetch = async (input: RequestInfo | URL) => {
    calls.push(input instanceof Request ? input.url : String(input));
    return {
      ok: true,
      status: 200,
      headers: new Headers({ 'content-type': 'application/json' }),
      body: null,
      text: async () => JSON.stringify(statusResult),
    } as unknown as Response;
  };
  const wallet = new WalletClient({ apiKey: API_KEY, baseUrl: 'http://127.0.0.1:1', fetch: foreignFetch });

  await expect(wallet.getTransaction(statusResult.transaction_id)).resolves.toEqual(statusResult);

  expect(calls).toEqual([`http://127.0.0.1:1/merchants/transactions/status/${statusResult.transaction_id}`]);
});

test('the request reaching fetch carries the method, headers, body and redirect mode', async () => {
  const seen: Array<{ request: Request; body: string }> = [];
  const wallet = new WalletClient({
    apiKey: API_KEY,
    baseUrl: 'http://127.0.0.1:1',
    fetch: async (input, init) => {
      const request = new Request(input, init);
      seen.push({ request, body: await request.text() });
      return Response.json({ ...statusResult, transaction_id: 'txn_9', amount: 5, reference_id: 'order-9' });
    },
  });

  await wallet
    .withdraw({ email: 'a@example.com', amount: 5, currency: 'KES', reference_id: 'order-9' })
    .catch(() => {});

  expect(seen).toHaveLength(1);
  const [{ request, body }] = seen as [{ request: Request; body: string }];
  expect(request.method).toBe('POST');
  expect(request.redirect).toBe('manual');
  expect(request.headers.get('x-api-key')).toBe(API_KEY);
  expect(request.headers.get('content-type')).toBe('application/json');
  expect(body).toContain('"reference_id":"order-9"');
});

test('a fetch that refuses redirect "error", as workerd does, still makes the call', async () => {
  const wallet = new WalletClient({
    apiKey: API_KEY,
    baseUrl: 'http://127.0.0.1:1',
    maxRetries: 0,
    fetch: async (_input, init) => {
      if (init?.redirect === 'error') {
        throw new TypeError('Invalid redirect value, must be one of "follow" or "manual"');
      }
      return Response.json(statusResult);
    },
  });
  await expect(wallet.getTransaction(statusResult.transaction_id)).resolves.toEqual(statusResult);
});

describe('an opaque redirect, as browsers give for redirect "manual", is a redirect answer', () => {
  const opaqueRedirect = async () =>
    ({ type: 'opaqueredirect', status: 0, headers: new Headers(), body: null }) as unknown as Response;

  test('a read fails after one attempt with a WalletConnectionError that names the redirect', async () => {
    let calls = 0;
    const wallet = new WalletClient({
      apiKey: API_KEY,
      baseUrl: 'http://127.0.0.1:1',
      fetch: async () => {
        calls += 1;
        return opaqueRedirect();
      },
    });
    const error = await wallet.getTransaction('txn_1').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WalletConnectionError);
    expect((error as Error).message).toMatch(/redirect/);
    expect(calls).toBe(1);
  });

  test('a deposit answered that way may have been applied: it ends unknown, never "not applied"', async () => {
    const wallet = new WalletClient({
      apiKey: API_KEY,
      baseUrl: 'http://127.0.0.1:1',
      maxRetries: 0,
      fetch: opaqueRedirect,
    });
    const error = await wallet
      .deposit({ reference_id: 'order-7', amount: 5, currency: 'KES' }, { userToken: 'utk_1' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WalletOutcomeUnknownError);
  });
});

test('a fetch that throws instead of rejecting fails the call with a WalletConnectionError, not a bare error', async () => {
  let calls = 0;
  const wallet = new WalletClient({
    apiKey: API_KEY,
    baseUrl: 'http://127.0.0.1:1',
    maxRetries: 0,
    fetch: () => {
      calls += 1;
      throw new TypeError('fetch failed');
    },
  });

  await expect(wallet.getTransaction(statusResult.transaction_id)).rejects.toBeInstanceOf(
    WalletConnectionError,
  );
  expect(calls).toBe(1);
});
