import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  WalletAbortError,
  WalletApiError,
  WalletConnectionError,
  WalletOutcomeUnknownError,
  WalletTimeoutError,
} from '../../src/index.js';
import {
  answer,
  answerInTurn,
  BASE_URL,
  depositResult,
  record,
  statusResult,
  USER_TOKEN,
  useApiServer,
  withdrawResult,
} from '../helpers/api-server.js';

const api = useApiServer();
const deposit = { reference_id: 'order-1042', amount: 250, currency: 'KES' };
const json =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  () =>
    HttpResponse.json(body as Record<string, unknown>, { status, headers });
const dropped = () => HttpResponse.error();
/** The same rules hold over the fetch transport as over the default Node one. */
const overFetch = { fetch: (input: RequestInfo | URL, init?: RequestInit) => fetch(input, init) };
const errorBody = (code: string) => ({ code, message: code.replaceAll('_', ' ') });

beforeEach(() => {
  // Full jitter with random() = 0 waits 0 ms, so retry tests run without real delays.
  vi.spyOn(Math, 'random').mockReturnValue(0);
});

describe('GET requests', () => {
  test.each([408, 425, 429, 500, 502, 503, 504])(
    'a status lookup answered %i is retried and then succeeds',
    async (status) => {
      api.use(
        answerInTurn('status', json(status, { code: 'internal_server_error' }), json(200, statusResult)),
      );

      await expect(api.client().getTransaction('txn_c2b_001')).resolves.toEqual(statusResult);
      expect(api.seen).toHaveLength(2);
    },
  );

  test('a dropped connection is retried and then succeeds', async () => {
    api.use(answerInTurn('status', dropped, json(200, statusResult)));

    await expect(api.client().getTransaction('txn_c2b_001')).resolves.toEqual(statusResult);
  });

  test('after maxRetries + 1 failed attempts the last API error is thrown', async () => {
    api.use(answerInTurn('status', json(503, {}), json(503, {}), json(503, {})));

    const error = await api
      .client({ maxRetries: 2 })
      .getTransaction('txn_c2b_001')
      .catch((e) => e);

    expect(error).toBeInstanceOf(WalletApiError);
    expect(error).toMatchObject({ status: 503, code: 'unknown_error', endpoint: 'status' });
    expect(api.seen).toHaveLength(3);
  });

  test('after maxRetries + 1 dropped connections a WalletConnectionError carries the attempt count', async () => {
    api.use(answerInTurn('status', dropped, dropped));

    const error = await api
      .client({ maxRetries: 1 })
      .getTransaction('txn_c2b_001')
      .catch((e) => e);

    expect(error).toBeInstanceOf(WalletConnectionError);
    expect(error).toMatchObject({ attempts: 2, endpoint: 'status' });
  });

  test('an attempt slower than timeoutMs is abandoned and retried; all slow gives WalletTimeoutError', async () => {
    const slow = async () => {
      await new Promise((resolve) => setTimeout(resolve, 200));
      return HttpResponse.json(statusResult);
    };
    api.use(answerInTurn('status', slow, slow));

    const error = await api
      .client({ timeoutMs: 20, maxRetries: 1 })
      .getTransaction('txn_c2b_001')
      .catch((e) => e);

    expect(error).toBeInstanceOf(WalletTimeoutError);
    expect(error).toMatchObject({ attempts: 2, timeoutMs: 20 });
    expect(api.seen).toHaveLength(2);
  });

  test('a per-call timeoutMs overrides the client default', async () => {
    const slow = async () => {
      await new Promise((resolve) => setTimeout(resolve, 200));
      return HttpResponse.json(statusResult);
    };
    api.use(answerInTurn('status', slow));

    const error = await api
      .client({ maxRetries: 0 })
      .getTransaction('txn_c2b_001', { timeoutMs: 10 })
      .catch((e) => e);

    expect(error).toBeInstanceOf(WalletTimeoutError);
  });

  test.each([400, 401, 403, 404, 409, 422])(
    'an error answered with HTTP %i is not retried',
    async (status) => {
      api.use(answer('status', status, errorBody('transaction_not_found')));

      await expect(api.client().getTransaction('txn_missing')).rejects.toMatchObject({
        code: 'transaction_not_found',
      });
      expect(api.seen).toHaveLength(1);
    },
  );

  test('a 5xx that names a documented business error is a final answer, not retried', async () => {
    api.use(answer('deposit', 502, errorBody('psp_error')));

    await expect(api.client().deposit(deposit, { userToken: USER_TOKEN })).rejects.toMatchObject({
      name: 'WalletApiError',
      code: 'psp_error',
      status: 502,
    });
    expect(api.seen).toHaveLength(1);
  });
});

describe('backoff and Retry-After', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  test('waits a full-jitter delay that doubles per retry: random() * 500 ms, then * 1000 ms', async () => {
    vi.useFakeTimers();
    vi.mocked(Math.random).mockReturnValue(0.5);
    api.use(answerInTurn('status', json(503, {}), json(503, {}), json(200, statusResult)));

    const result = api.client().getTransaction('txn_c2b_001');
    await vi.advanceTimersByTimeAsync(249);
    expect(api.seen).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(api.seen).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(499);
    expect(api.seen).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);

    await expect(result).resolves.toEqual(statusResult);
    expect(api.seen).toHaveLength(3);
  });

  test('honours Retry-After given in seconds', async () => {
    vi.useFakeTimers();
    api.use(answerInTurn('status', json(429, {}, { 'retry-after': '3' }), json(200, statusResult)));

    const result = api.client().getTransaction('txn_c2b_001');
    await vi.advanceTimersByTimeAsync(2_999);
    expect(api.seen).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);

    await expect(result).resolves.toEqual(statusResult);
  });

  test('honours Retry-After given as an HTTP date', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-21T12:00:00Z') });
    const retryAt = 'Sat, 21 Nov 2026 12:00:05 GMT';
    api.use(answerInTurn('status', json(503, {}, { 'retry-after': retryAt }), json(200, statusResult)));

    const result = api.client().getTransaction('txn_c2b_001');
    await vi.advanceTimersByTimeAsync(4_999);
    expect(api.seen).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);

    await expect(result).resolves.toEqual(statusResult);
  });

  test('a Retry-After longer than 60 s ends the retries with the API error', async () => {
    api.use(answerInTurn('status', json(429, { code: 'rate_limited' }, { 'retry-after': '3600' })));

    await expect(api.client().getTransaction('txn_c2b_001')).rejects.toMatchObject({ status: 429 });
    expect(api.seen).toHaveLength(1);
  });
});

describe('money-moving POSTs', () => {
  test('a deposit retried after a dropped connection resends the same body and reference_id', async () => {
    api.use(answerInTurn('deposit', dropped, json(200, depositResult)));

    await expect(api.client().deposit(deposit, { userToken: USER_TOKEN })).resolves.toEqual(depositResult);
    expect(api.seen.map((request) => JSON.parse(request.body))).toEqual([deposit, deposit]);
  });

  test('a withdrawal without reference_id reuses its generated one on every retry', async () => {
    const answered = { ...withdrawResult, reference_id: undefined };
    api.use(answerInTurn('withdraw', json(503, {}), json(502, {}), json(200, answered)));

    await api.client().withdraw({ email: 'ada@example.com', amount: withdrawResult.amount, currency: 'KES' });

    const references = api.seen.map((request) => JSON.parse(request.body).reference_id);
    expect(references).toHaveLength(3);
    expect(new Set(references).size).toBe(1);
  });

  test('a retried deposit answered reference_already_used throws WalletOutcomeUnknownError', async () => {
    api.use(answerInTurn('deposit', dropped, json(409, errorBody('reference_already_used'))));

    const error = await api
      .client()
      .deposit(deposit, { userToken: USER_TOKEN })
      .catch((e) => e);

    expect(error).toBeInstanceOf(WalletOutcomeUnknownError);
    expect(error).toMatchObject({ referenceId: 'order-1042', endpoint: 'deposit', attempts: 2 });
    expect(error.cause).toMatchObject({ code: 'reference_already_used' });
  });

  test('a first attempt answered reference_already_used is a plain API error: the id was reused', async () => {
    api.use(answer('withdraw', 409, errorBody('reference_already_used')));

    const error = await api
      .client()
      .withdraw({ email: 'ada@example.com', amount: 1, currency: 'KES', reference_id: 'dup' })
      .catch((e) => e);

    expect(error).toBeInstanceOf(WalletApiError);
    expect(error.code).toBe('reference_already_used');
  });

  test('a deposit whose last attempt died after sending throws WalletOutcomeUnknownError', async () => {
    api.use(answerInTurn('deposit', dropped, dropped, dropped));

    const error = await api
      .client(overFetch)
      .deposit(deposit, { userToken: USER_TOKEN })
      .catch((e) => e);

    expect(error).toBeInstanceOf(WalletOutcomeUnknownError);
    expect(error).toMatchObject({ referenceId: 'order-1042', attempts: 3 });
    expect(error.cause).toBeInstanceOf(WalletConnectionError);
  });

  test('a withdrawal that timed out on every attempt throws WalletOutcomeUnknownError with the generated id', async () => {
    const slow = async ({ request }: { request: Request }) => {
      await record(request);
      await new Promise((resolve) => setTimeout(resolve, 200));
      return HttpResponse.json(withdrawResult);
    };
    api.use(http.post(`${BASE_URL}/merchants/transactions/b2c`, slow));

    const error = await api
      .client({ timeoutMs: 20, maxRetries: 1 })
      .withdraw({ email: 'ada@example.com', amount: 1, currency: 'KES' })
      .catch((e) => e);

    expect(error).toBeInstanceOf(WalletOutcomeUnknownError);
    expect(error.referenceId).toBe(JSON.parse(api.seen[0]?.body ?? '').reference_id);
    expect(error.cause).toBeInstanceOf(WalletTimeoutError);
  });

  test('a deposit that keeps meeting 500 ends unknown: a 500 may come after the transfer was applied', async () => {
    api.use(answerInTurn('deposit', json(500, {}), json(500, {}), json(500, {})));

    await expect(api.client().deposit(deposit, { userToken: USER_TOKEN })).rejects.toBeInstanceOf(
      WalletOutcomeUnknownError,
    );
  });

  test('a deposit that keeps meeting 429 ends with the API error: a rate-limited request was not applied', async () => {
    api.use(answerInTurn('deposit', json(429, {}), json(429, {}), json(429, {})));

    const error = await api
      .client()
      .deposit(deposit, { userToken: USER_TOKEN })
      .catch((e) => e);

    expect(error).toBeInstanceOf(WalletApiError);
    expect(error.status).toBe(429);
  });

  test('after an attempt that may have been applied, a later business error is reported as unknown', async () => {
    api.use(answerInTurn('deposit', dropped, json(400, errorBody('insufficient_balance'))));

    const error = await api
      .client(overFetch)
      .deposit(deposit, { userToken: USER_TOKEN })
      .catch((e) => e);

    expect(error).toBeInstanceOf(WalletOutcomeUnknownError);
    expect(error.cause).toMatchObject({ code: 'insufficient_balance' });
  });
});

describe('aborting', () => {
  test('an already aborted signal rejects with WalletAbortError and sends nothing', async () => {
    const controller = new AbortController();
    controller.abort();

    await expect(
      api.client().deposit(deposit, { userToken: USER_TOKEN, signal: controller.signal }),
    ).rejects.toBeInstanceOf(WalletAbortError);
    expect(api.seen).toHaveLength(0);
  });

  test('aborting a status lookup in flight rejects with WalletAbortError', async () => {
    const controller = new AbortController();
    api.use(
      http.get(`${BASE_URL}/merchants/transactions/status/:id`, async () => {
        controller.abort();
        await new Promise((resolve) => setTimeout(resolve, 50));
        return HttpResponse.json(statusResult);
      }),
    );

    await expect(
      api.client().getTransaction('txn_c2b_001', { signal: controller.signal }),
    ).rejects.toBeInstanceOf(WalletAbortError);
  });

  test('aborting a deposit in flight rejects with WalletOutcomeUnknownError: it may have been applied', async () => {
    const controller = new AbortController();
    api.use(
      http.post(`${BASE_URL}/merchants/transactions/c2b`, async () => {
        controller.abort();
        await new Promise((resolve) => setTimeout(resolve, 50));
        return HttpResponse.json(depositResult);
      }),
    );

    const error = await api
      .client()
      .deposit(deposit, { userToken: USER_TOKEN, signal: controller.signal })
      .catch((e) => e);

    expect(error).toBeInstanceOf(WalletOutcomeUnknownError);
    expect(error.referenceId).toBe('order-1042');
  });

  test('aborting during the backoff wait stops at once without another attempt', async () => {
    vi.mocked(Math.random).mockReturnValue(0.99);
    const controller = new AbortController();
    api.use(answerInTurn('status', json(503, {})));

    const pending = api.client().getTransaction('txn_c2b_001', { signal: controller.signal });
    await vi.waitFor(() => expect(api.seen).toHaveLength(1));
    controller.abort();

    await expect(pending).rejects.toBeInstanceOf(WalletAbortError);
    expect(api.seen).toHaveLength(1);
  });
});
