import { describe, expect, test, vi } from 'vitest';
import {
  endpointsForCode,
  isWalletApiError,
  WALLET_ERROR_CODES,
  WalletApiError,
  type WalletEndpoint,
  type WalletErrorCode,
  WalletOutcomeUnknownError,
  WalletRequestValidationError,
  walletErrorCodes,
} from '../../src/index.js';
import { answer, ROUTES, USER_TOKEN, useApiServer } from '../helpers/api-server.js';
import {
  callEndpoint,
  ERROR_BODY_SHAPES,
  HTTP_STATUS_FOR_CODE,
  movesMoney,
  rejectionOf,
  SPEC_ERROR_TABLE,
  validDeposit,
} from '../helpers/error-fixtures.js';

const api = useApiServer();

const cases: Array<[WalletErrorCode, WalletEndpoint]> = walletErrorCodes.flatMap((code) =>
  endpointsForCode(code).map((endpoint): [WalletErrorCode, WalletEndpoint] => [code, endpoint]),
);
/** Every case but a 500 on a POST, which ends in WalletOutcomeUnknownError (tested below). */
const answeredCases = cases.filter(
  ([code, endpoint]) => !(code === 'internal_server_error' && movesMoney(endpoint)),
);
const postServerErrorCases = (['deposit', 'withdraw'] as const).map((endpoint) => [endpoint] as const);

/** A client that does not retry a GET answered 500, so the table runs with one request per case. */
function clientFor(code: WalletErrorCode) {
  return code === 'internal_server_error' ? api.client({ maxRetries: 0 }) : api.client();
}

function expectApiError(
  error: unknown,
  expected: { code: string; status: number; endpoint: WalletEndpoint; body: unknown; message: string },
) {
  expect(error).toBeInstanceOf(WalletApiError);
  const apiError = error as WalletApiError;
  expect(apiError.code).toBe(expected.code);
  expect(apiError.status).toBe(expected.status);
  expect(apiError.endpoint).toBe(expected.endpoint);
  expect(apiError.body).toEqual(expected.body);
  expect(apiError.message.startsWith(expected.message)).toBe(true);
  expect(apiError.message).toContain(expected.code);
  expect(apiError.message).toContain(String(expected.status));
}

test("the SDK's code table is the spec's errors table: 22 codes, their endpoints and per-endpoint messages", () => {
  expect(walletErrorCodes).toHaveLength(22);
  expect(WALLET_ERROR_CODES).toEqual(SPEC_ERROR_TABLE);
  expect(Object.keys(HTTP_STATUS_FOR_CODE).sort()).toEqual([...walletErrorCodes].sort());
});

describe.each(ERROR_BODY_SHAPES)('an error body shaped %s', (_shape, build) => {
  test.each(answeredCases)(
    '%s from %s rejects with WalletApiError carrying code, status, endpoint, body and the server message',
    async (code, endpoint) => {
      const status = HTTP_STATUS_FOR_CODE[code];
      const body = build(code, `server says ${code} on ${endpoint}`);
      api.use(answer(endpoint, status, body));

      const error = await rejectionOf(callEndpoint(clientFor(code), endpoint));

      expectApiError(error, { code, status, endpoint, body, message: `server says ${code} on ${endpoint}` });
      expect(api.seen).toHaveLength(1);
    },
  );

  test.each(answeredCases)(
    '%s from %s without a message gets the spec message of that endpoint',
    async (code, endpoint) => {
      const status = HTTP_STATUS_FOR_CODE[code];
      const body = build(code);
      api.use(answer(endpoint, status, body));

      const error = await rejectionOf(callEndpoint(clientFor(code), endpoint));

      expectApiError(error, {
        code,
        status,
        endpoint,
        body,
        message: SPEC_ERROR_TABLE[code]?.[endpoint] ?? '?',
      });
    },
  );

  test.each(postServerErrorCases)(
    'internal_server_error (HTTP 500) from %s ends in WalletOutcomeUnknownError whose cause is the WalletApiError: a 500 may have been applied',
    async (endpoint) => {
      const body = build('internal_server_error');
      api.use(answer(endpoint, 500, body));

      const error = await rejectionOf(callEndpoint(api.client({ maxRetries: 0 }), endpoint));

      expect(error).toBeInstanceOf(WalletOutcomeUnknownError);
      expect(error).toMatchObject({ endpoint, attempts: 1 });
      expectApiError((error as Error).cause, {
        code: 'internal_server_error',
        status: 500,
        endpoint,
        body,
        message: 'internal server error',
      });
    },
  );
});

describe('internal_server_error on money-moving POSTs', () => {
  test.each(postServerErrorCases)(
    '%s answered 500 on every attempt is retried, then ends unknown carrying its reference_id',
    async (endpoint) => {
      vi.spyOn(Math, 'random').mockReturnValue(0);
      const body = { code: 'internal_server_error', message: 'internal server error' };
      api.use(answer(endpoint, 500, body));

      const error = await rejectionOf(callEndpoint(api.client(), endpoint));

      expect(error).toBeInstanceOf(WalletOutcomeUnknownError);
      expect(error).toMatchObject({
        endpoint,
        attempts: 3,
        referenceId: endpoint === 'deposit' ? 'order-1042' : 'payout-77',
      });
      expect((error as Error).cause).toBeInstanceOf(WalletApiError);
      expect((error as Error).cause).toMatchObject({ code: 'internal_server_error', status: 500, body });
      expect(api.seen).toHaveLength(3);
    },
  );
});

describe('the same code keeps its per-endpoint default message', () => {
  test.each([
    ['authorization_token_not_found', 'deposit', 'please provide a bearer authorization token'],
    ['authorization_token_not_found', 'providers', 'please provide an authorization token'],
    ['application_not_authorized', 'deposit', 'application not authorized'],
    ['application_not_authorized', 'providers', 'application is not authorized'],
    ['user_not_active', 'deposit', 'user account is not active'],
    ['user_not_active', 'withdraw', 'user not active'],
    ['merchant_not_active', 'deposit', 'merchant account is not active'],
    ['merchant_not_active', 'withdraw', 'merchant not active'],
  ] as const)('%s from %s defaults to "%s"', async (code, endpoint, message) => {
    api.use(answer(endpoint, 401, { code }));

    const error = await rejectionOf(callEndpoint(api.client(), endpoint));

    expect(error).toBeInstanceOf(WalletApiError);
    expect((error as Error).message).toBe(`${message} (${code}, HTTP 401 from ${endpoint})`);
  });

  test('an empty message in the body also falls back to the spec message', async () => {
    api.use(answer('withdraw', 422, { code: 'invalid_amount', message: '' }));

    const error = await rejectionOf(callEndpoint(api.client(), 'withdraw'));

    expect((error as Error).message.startsWith('invalid amount')).toBe(true);
  });
});

describe('bodies without a documented code', () => {
  test('a non-JSON 502 HTML page gives WalletApiError unknown_error with status 502 and the HTML kept as body', async () => {
    const html = '<html><body><h1>502 Bad Gateway</h1></body></html>';
    api.use(answer('status', 502, html, { 'content-type': 'text/html' }));

    const error = await rejectionOf(callEndpoint(api.client({ maxRetries: 0 }), 'status'));

    expect(error).toBeInstanceOf(WalletApiError);
    expect(error).toMatchObject({ code: 'unknown_error', status: 502, endpoint: 'status', body: html });
    expect(api.seen).toHaveLength(1);
  });

  test('an unknown code gives unknown_error with the raw body kept', async () => {
    api.use(answer('withdraw', 418, { code: 'teapot' }));

    const error = await rejectionOf(callEndpoint(api.client(), 'withdraw'));

    expect(error).toBeInstanceOf(WalletApiError);
    expect(error).toMatchObject({
      code: 'unknown_error',
      status: 418,
      endpoint: 'withdraw',
      body: { code: 'teapot' },
    });
    expect((error as Error).message).toContain('418');
  });

  test('an unknown code keeps the message the server sent', async () => {
    api.use(answer('deposit', 418, { error: { code: 'teapot', message: 'short and stout' } }));

    const error = await rejectionOf(callEndpoint(api.client(), 'deposit'));

    expect(error).toMatchObject({ code: 'unknown_error', status: 418 });
    expect((error as Error).message.startsWith('short and stout')).toBe(true);
  });

  test('a name inherited from Object.prototype is not taken for a documented code', async () => {
    api.use(answer('status', 400, { code: 'constructor' }));

    const error = await rejectionOf(callEndpoint(api.client(), 'status'));

    expect(error).toMatchObject({ code: 'unknown_error', body: { code: 'constructor' } });
  });

  test.each([
    ['status', 404],
    ['deposit', 400],
  ] as const)(
    'an empty %s body with HTTP %i gives unknown_error with that status and an empty body',
    async (endpoint, status) => {
      api.use(answer(endpoint, status, ''));

      const error = await rejectionOf(callEndpoint(api.client(), endpoint));

      expect(error).toBeInstanceOf(WalletApiError);
      expect(error).toMatchObject({ code: 'unknown_error', status, endpoint, body: '' });
      expect((error as Error).message).toContain(String(status));
    },
  );
});

describe('request id', () => {
  test('the x-request-id response header becomes requestId', async () => {
    api.use(answer('withdraw', 422, { code: 'insufficient_balance' }, { 'x-request-id': 'req_7Hq2' }));

    const error = await rejectionOf(callEndpoint(api.client(), 'withdraw'));

    expect(error).toMatchObject({ code: 'insufficient_balance', requestId: 'req_7Hq2' });
  });

  test('without an x-request-id header requestId is undefined', async () => {
    api.use(answer('withdraw', 422, { code: 'insufficient_balance' }));

    const error = await rejectionOf(callEndpoint(api.client(), 'withdraw'));

    expect(error).toBeInstanceOf(WalletApiError);
    expect((error as WalletApiError).requestId).toBeUndefined();
  });
});

describe('isWalletApiError', () => {
  test('is true for an API error with the asked code and for any API error when no code is asked', async () => {
    api.use(answer('deposit', 422, { code: 'insufficient_balance' }));

    const error = await rejectionOf(api.client().deposit(validDeposit, { userToken: USER_TOKEN }));

    expect(isWalletApiError(error, 'insufficient_balance')).toBe(true);
    expect(isWalletApiError(error)).toBe(true);
    expect(isWalletApiError(error, 'invalid_amount')).toBe(false);
  });

  test('is false for a request validation error, a plain Error and look-alike objects', async () => {
    const validation = await rejectionOf(
      api.client().deposit({ ...validDeposit, amount: 0 }, { userToken: USER_TOKEN }),
    );
    const lookAlike = Object.assign(new Error('insufficient balance'), {
      name: 'WalletApiError',
      code: 'insufficient_balance',
    });

    expect(validation).toBeInstanceOf(WalletRequestValidationError);
    expect(isWalletApiError(validation, 'insufficient_balance')).toBe(false);
    expect(isWalletApiError(validation)).toBe(false);
    expect(isWalletApiError(lookAlike, 'insufficient_balance')).toBe(false);
    expect(isWalletApiError({ name: 'WalletApiError', code: 'insufficient_balance' })).toBe(false);
    expect(isWalletApiError(null, 'insufficient_balance')).toBe(false);
    expect(isWalletApiError(undefined)).toBe(false);
    expect(api.seen).toHaveLength(0);
  });
});

test('each of the four endpoints returns at least one documented code', () => {
  expect(new Set(cases.map(([, endpoint]) => endpoint))).toEqual(new Set(Object.keys(ROUTES)));
});
