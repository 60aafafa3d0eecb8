import { describe, expect, test } from 'vitest';
import {
  API_KEY,
  answer,
  BASE_URL,
  depositResult,
  providerList,
  statusResult,
  USER_AGENT,
  USER_TOKEN,
  useApiServer,
  withdrawResult,
} from '../helpers/api-server.js';

const api = useApiServer();

describe('deposit (C2B)', () => {
  test('posts the body to /merchants/transactions/c2b with x-api-key, bearer token and JSON content type only', async () => {
    api.use(answer('deposit', 200, depositResult));
    const body = {
      reference_id: 'order-1042',
      amount: 250,
      currency: 'KES',
      payment_provider: 'mpesa',
      description: 'Order 1042',
      webhook_url: 'https://shop.example.com/hooks/wallet',
    };

    const result = await api.client().deposit(body, { userToken: USER_TOKEN });

    expect(result).toEqual(depositResult);
    expect(api.seen).toHaveLength(1);
    const [request] = api.seen;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe(`${BASE_URL}/merchants/transactions/c2b`);
    expect(request?.headers).toEqual({
      'x-api-key': API_KEY,
      authorization: `Bearer ${USER_TOKEN}`,
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
    });
    expect(JSON.parse(request?.body ?? '')).toEqual(body);
  });

  test('keeps a path prefix of the base URL', async () => {
    const { http, HttpResponse } = await import('msw');
    api.use(
      http.post(`${BASE_URL}/wallet/v1/merchants/transactions/c2b`, () => HttpResponse.json(depositResult)),
    );
    const client = api.client({ baseUrl: `${BASE_URL}/wallet/v1` });

    await expect(
      client.deposit({ reference_id: 'order-1042', amount: 250, currency: 'KES' }, { userToken: USER_TOKEN }),
    ).resolves.toEqual(depositResult);
  });
});

describe('withdraw (B2C)', () => {
  test('posts to /merchants/transactions/b2c with x-api-key and content type, and no Authorization header', async () => {
    api.use(answer('withdraw', 200, withdrawResult));
    const body = { email: 'ada@example.com', amount: 120.5, currency: 'KES', reference_id: 'payout-77' };

    const result = await api.client().withdraw(body);

    expect(result).toEqual(withdrawResult);
    const [request] = api.seen;
    expect(request?.url).toBe(`${BASE_URL}/merchants/transactions/b2c`);
    expect(request?.headers).toEqual({
      'x-api-key': API_KEY,
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
    });
    expect(JSON.parse(request?.body ?? '')).toEqual(body);
  });

  test('generates a UUID reference_id when none is given, so retries stay idempotent', async () => {
    api.use(answer('withdraw', 200, { ...withdrawResult, reference_id: undefined }));

    await api.client().withdraw({ email: 'ada@example.com', amount: withdrawResult.amount, currency: 'KES' });

    const sent = JSON.parse(api.seen[0]?.body ?? '');
    expect(sent.reference_id).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});

describe('getTransaction (status)', () => {
  test('gets /merchants/transactions/status/{id} with x-api-key only and keeps amount a string', async () => {
    api.use(answer('status', 200, statusResult));

    const result = await api.client().getTransaction('txn_c2b_001');

    expect(result).toEqual(statusResult);
    expect(typeof result.amount).toBe('string');
    const [request] = api.seen;
    expect(request?.method).toBe('GET');
    expect(request?.url).toBe(`${BASE_URL}/merchants/transactions/status/txn_c2b_001`);
    expect(request?.headers).toEqual({ 'x-api-key': API_KEY, 'user-agent': USER_AGENT });
    expect(request?.body).toBe('');
  });

  test.each([
    ['a/b', 'a%2Fb'],
    ['?admin=1', '%3Fadmin%3D1'],
    ['#frag', '%23frag'],
    ['100%', '100%25'],
    ['../providers', '..%2Fproviders'],
  ])('percent-encodes the transaction id %j so it stays one path segment', async (id, encoded) => {
    api.use(answer('status', 200, { ...statusResult, transaction_id: id }));

    await api.client().getTransaction(id);

    expect(api.seen[0]?.url).toBe(`${BASE_URL}/merchants/transactions/status/${encoded}`);
  });
});

describe('listProviders', () => {
  test('gets /merchants/accounts/providers with x-api-key and bearer token only', async () => {
    api.use(answer('providers', 200, providerList));

    const result = await api.client().listProviders({ userToken: USER_TOKEN });

    expect(result).toEqual(providerList);
    expect(api.seen[0]?.url).toBe(`${BASE_URL}/merchants/accounts/providers`);
    expect(api.seen[0]?.headers).toEqual({
      'x-api-key': API_KEY,
      authorization: `Bearer ${USER_TOKEN}`,
      'user-agent': USER_AGENT,
    });
  });
});

test('extra headers from the options are sent with every request', async () => {
  api.use(answer('status', 200, statusResult));

  await api.client({ headers: { 'X-Merchant-Trace': 'abc' } }).getTransaction('txn_c2b_001');

  expect(api.seen[0]?.headers).toEqual({
    'x-api-key': API_KEY,
    'x-merchant-trace': 'abc',
    'user-agent': USER_AGENT,
  });
});
