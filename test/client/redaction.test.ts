import { inspect } from 'node:util';
import { HttpResponse } from 'msw';
import { beforeEach, describe, expect, test, vi } from 'vitest';
import {
  WalletApiError,
  WalletClient,
  type WalletClientOptions,
  WalletConfigError,
  WalletConnectionError,
  WalletOutcomeUnknownError,
  WalletRequestValidationError,
  WalletTimeoutError,
} from '../../src/index.js';
import {
  API_KEY,
  answer,
  answerInTurn,
  BASE_URL,
  statusResult,
  USER_TOKEN,
  useApiServer,
} from '../helpers/api-server.js';
import { ERROR_BODY_SHAPES, rejectionOf, validDeposit } from '../helpers/error-fixtures.js';

const api = useApiServer();
const SECRETS = [API_KEY, USER_TOKEN];

// Retries wait random() * backoff: 0 ms here.
beforeEach(() => {
  vi.spyOn(Math, 'random').mockReturnValue(0);
});

/** Every way an error is commonly turned into text or shipped to a log. */
function renderings(error: unknown): Record<string, string> {
  const err = error as Error & { toJSON(): unknown };
  return {
    message: err.message,
    stack: String(err.stack),
    string: String(err),
    json: JSON.stringify(err),
    toJSON: JSON.stringify(err.toJSON()),
    inspect: inspect(err, { depth: 10, showHidden: true }),
    inspectCause: inspect(err.cause, { depth: 10, showHidden: true }),
    causeMessage: err.cause instanceof Error ? err.cause.message : '',
  };
}

function expectNoSecrets(error: unknown) {
  for (const [how, text] of Object.entries(renderings(error))) {
    for (const secret of SECRETS) {
      expect(text, `${how} leaks a secret`).not.toContain(secret);
    }
  }
}

/** An error body that echoes both secrets back, as a careless gateway might. */
const echoingBody = (code: string) => ({
  code,
  message: `rejected key ${API_KEY} with token Bearer ${USER_TOKEN}`,
  echo: { headers: { 'x-api-key': API_KEY, authorization: `Bearer ${USER_TOKEN}` }, tokens: [USER_TOKEN] },
});

/** A fetch that never answers and gives up only when the request's signal aborts. */
const hangingFetch: typeof fetch = (input) =>
  new Promise((_resolve, reject) => {
    const signal = input instanceof Request ? input.signal : undefined;
    signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
  });

describe('WalletApiError', () => {
  test('a deposit error body echoing the key and token is kept with both redacted', async () => {
    api.use(answer('deposit', 401, echoingBody('invalid_api_key')));

    const error = await rejectionOf(api.client().deposit(validDeposit, { userToken: USER_TOKEN }));

    expect(error).toBeInstanceOf(WalletApiError);
    expectNoSecrets(error);
    expect((error as WalletApiError).body).toEqual({
      code: 'invalid_api_key',
      message: 'rejected key [redacted] with token Bearer [redacted]',
      echo: {
        headers: { 'x-api-key': '[redacted]', authorization: 'Bearer [redacted]' },
        tokens: ['[redacted]'],
      },
    });
    expect((error as Error).message).toContain('[redacted]');
  });

  test.each(ERROR_BODY_SHAPES)(
    'a listProviders error shaped %s echoing the token leaks nothing',
    async (_shape, build) => {
      api.use(answer('providers', 403, build('application_not_authorized', `token ${USER_TOKEN} refused`)));

      const error = await rejectionOf(api.client().listProviders({ userToken: USER_TOKEN }));

      expect(error).toMatchObject({
        code: 'application_not_authorized',
        message: expect.stringContaining('token [redacted] refused'),
      });
      expectNoSecrets(error);
    },
  );

  test('a non-JSON error page echoing the key is kept as text with the key redacted', async () => {
    api.use(answer('status', 502, `<html>bad gateway for x-api-key: ${API_KEY}</html>`));

    const error = await rejectionOf(api.client({ maxRetries: 0 }).getTransaction('txn_c2b_001'));

    expect(error).toMatchObject({
      code: 'unknown_error',
      body: '<html>bad gateway for x-api-key: [redacted]</html>',
    });
    expectNoSecrets(error);
  });
});

describe.each([
  ['node:http', {}],
  ['fetch', { fetch: (input: RequestInfo | URL, init?: RequestInit) => fetch(input, init) }],
] as const)('secrets echoed as JSON keys, over the %s transport', (_transport, transport) => {
  /** Both secrets as keys, at the top and nested, with and without text around them. */
  const keyedBody = (code: string) => ({
    code,
    [API_KEY]: 'rejected',
    seen: { [`Bearer ${USER_TOKEN}`]: true, list: [{ [USER_TOKEN]: API_KEY }] },
  });

  test('a deposit error body keyed by the key and token shows neither in toJSON, inspect or message', async () => {
    api.use(answer('deposit', 401, keyedBody('invalid_api_key')));

    const error = await rejectionOf(api.client(transport).deposit(validDeposit, { userToken: USER_TOKEN }));

    expect(error).toMatchObject({ code: 'invalid_api_key' });
    expectNoSecrets(error);
    expect((error as WalletApiError).body).toEqual({
      code: 'invalid_api_key',
      '[redacted]': 'rejected',
      seen: { 'Bearer [redacted]': true, list: [{ '[redacted]': '[redacted]' }] },
    });
  });

  test('an unknown outcome caused by 500s keyed by the secrets leaks neither, its cause included', async () => {
    api.use(answer('deposit', 500, keyedBody('internal_server_error')));

    const error = await rejectionOf(
      api.client({ ...transport, maxRetries: 0 }).deposit(validDeposit, { userToken: USER_TOKEN }),
    );

    expect(error).toBeInstanceOf(WalletOutcomeUnknownError);
    expect(JSON.stringify((error as WalletOutcomeUnknownError).toJSON())).toContain('"[redacted]"');
    expectNoSecrets(error);
  });

  test('an unreadable status answer keyed by the API key keeps the body with the key redacted', async () => {
    api.use(answer('status', 200, { transaction_id: 7, [API_KEY]: { [API_KEY]: 1 } }));

    const error = await rejectionOf(
      api.client({ ...transport, maxRetries: 0 }).getTransaction('txn_c2b_001'),
    );

    expect(error).toMatchObject({ name: 'WalletResponseValidationError' });
    expect((error as { body: unknown }).body).toEqual({
      transaction_id: 7,
      '[redacted]': { '[redacted]': 1 },
    });
    expectNoSecrets(error);
  });

  test('a "__proto__" key in an error body stays a plain key and never becomes a prototype', async () => {
    api.use(
      answer('status', 404, JSON.parse(`{"code":"transaction_not_found","__proto__":{"${API_KEY}":1}}`)),
    );

    const error = await rejectionOf(api.client(transport).getTransaction('txn_missing'));
    const body = (error as WalletApiError).body as Record<string, unknown>;

    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
    expect(Object.hasOwn(body, '__proto__')).toBe(true);
    expectNoSecrets(error);
  });
});

describe('transport errors', () => {
  test('WalletConnectionError after dropped connections on every attempt leaks nothing', async () => {
    api.use(answerInTurn('providers', ...Array.from({ length: 3 }, () => () => HttpResponse.error())));

    const error = await rejectionOf(api.client().listProviders({ userToken: USER_TOKEN }));

    expect(error).toBeInstanceOf(WalletConnectionError);
    expect(error).toMatchObject({ attempts: 3 });
    expectNoSecrets(error);
  });

  test('WalletTimeoutError leaks nothing', async () => {
    const client = api.client({ fetch: hangingFetch, timeoutMs: 5, maxRetries: 1 });

    const error = await rejectionOf(client.listProviders({ userToken: USER_TOKEN }));

    expect(error).toBeInstanceOf(WalletTimeoutError);
    expectNoSecrets(error);
  });

  test('WalletOutcomeUnknownError after a timed-out deposit leaks nothing, its cause included', async () => {
    const client = api.client({ fetch: hangingFetch, timeoutMs: 5, maxRetries: 0 });

    const error = await rejectionOf(client.deposit(validDeposit, { userToken: USER_TOKEN }));

    expect(error).toBeInstanceOf(WalletOutcomeUnknownError);
    expect((error as Error).cause).toBeInstanceOf(WalletTimeoutError);
    expectNoSecrets(error);
  });

  test('WalletOutcomeUnknownError after 500s echoing the secrets leaks nothing, its cause included', async () => {
    api.use(answer('deposit', 500, echoingBody('internal_server_error')));

    const error = await rejectionOf(api.client().deposit(validDeposit, { userToken: USER_TOKEN }));

    expect(error).toBeInstanceOf(WalletOutcomeUnknownError);
    expect((error as Error).cause).toBeInstanceOf(WalletApiError);
    expect(JSON.stringify((error as WalletOutcomeUnknownError).toJSON())).toContain('[redacted]');
    expectNoSecrets(error);
  });
});

describe('errors raised before sending', () => {
  test.each([
    ['a userToken with a trailing space', { userToken: `${USER_TOKEN} ` }],
    ['a userToken with a line break', { userToken: `${USER_TOKEN}\n` }],
  ])('WalletRequestValidationError for %s does not repeat the token', async (_label, options) => {
    const error = await rejectionOf(api.client().deposit(validDeposit, options));

    expect(error).toBeInstanceOf(WalletRequestValidationError);
    expectNoSecrets(error);
  });

  test('WalletRequestValidationError for a bad body sent with a good token does not mention the token', async () => {
    const error = await rejectionOf(
      api.client().deposit({ ...validDeposit, amount: -1 }, { userToken: USER_TOKEN }),
    );

    expect(error).toBeInstanceOf(WalletRequestValidationError);
    expectNoSecrets(error);
  });

  test.each([
    ['an apiKey with a trailing line break', { apiKey: `${API_KEY}\n` }],
    ['an apiKey with a space inside', { apiKey: `${API_KEY} ${API_KEY}` }],
    ['the apiKey repeated as an x-api-key header', { headers: { 'x-api-key': API_KEY } }],
    ['the token repeated as an Authorization header', { headers: { Authorization: `Bearer ${USER_TOKEN}` } }],
    [
      'an extra header whose value breaks the line after the key',
      { headers: { 'X-Trace': `${API_KEY}\r\n` } },
    ],
  ])('WalletConfigError for %s does not repeat the secret', (_label, options) => {
    let thrown: unknown;
    try {
      new WalletClient({ apiKey: API_KEY, baseUrl: BASE_URL, ...(options as WalletClientOptions) });
    } catch (error) {
      thrown = error;
    }

    expect(thrown).toBeInstanceOf(WalletConfigError);
    expectNoSecrets(thrown);
  });
});

describe('the client itself', () => {
  test('util.inspect and JSON.stringify of a client show the base URL and never the key', () => {
    const client = api.client();
    const texts = [
      inspect(client),
      inspect(client, { depth: 10, showHidden: true }),
      inspect({ nested: { client } }, { depth: 10 }),
      JSON.stringify(client),
      JSON.stringify({ client }),
      String(client),
    ];

    for (const text of texts) expect(text).not.toContain(API_KEY);
    expect(JSON.stringify(client)).toBe(JSON.stringify({ baseUrl: `${BASE_URL}/` }));
    expect(inspect(client)).toContain(BASE_URL);
  });
});

describe('the logger', () => {
  test('receives no secret in any call during retries that end unknown', async () => {
    const logger = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    api.use(
      answerInTurn(
        'deposit',
        () => HttpResponse.json(echoingBody('internal_server_error'), { status: 503 }),
        () => HttpResponse.error(),
        () => HttpResponse.json(echoingBody('internal_server_error'), { status: 500 }),
      ),
    );

    const error = await rejectionOf(
      api.client({ logger, logLevel: 'debug' }).deposit(validDeposit, { userToken: USER_TOKEN }),
    );

    expect(error).toBeInstanceOf(WalletOutcomeUnknownError);
    const calls = Object.values(logger).flatMap((method) => method.mock.calls);
    expect(logger.warn).toHaveBeenCalledTimes(2);
    expect(calls.length).toBeGreaterThanOrEqual(5);
    const logged = calls.map((args) => `${JSON.stringify(args)}\n${inspect(args, { depth: 10 })}`).join('\n');
    for (const secret of SECRETS) expect(logged).not.toContain(secret);
  });

  test('receives no secret during a status lookup retried once after a dropped connection', async () => {
    const logger = { debug: vi.fn(), warn: vi.fn() };
    api.use(
      answerInTurn(
        'status',
        () => HttpResponse.error(),
        () => HttpResponse.json(statusResult),
      ),
    );

    await api.client({ logger, logLevel: 'debug' }).getTransaction('txn_c2b_001');

    expect(logger.debug).toHaveBeenCalledTimes(2);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    const logged = JSON.stringify([...logger.debug.mock.calls, ...logger.warn.mock.calls]);
    expect(logged).not.toContain(API_KEY);
  });
});

test('a request id header echoing the API key is kept with the key redacted', async () => {
  api.use(answer('status', 404, { code: 'transaction_not_found' }, { 'x-request-id': `req-${API_KEY}` }));

  const error = await api
    .client()
    .getTransaction('txn_missing')
    .catch((e) => e);

  expect(error.requestId).toBe('req-[redacted]');
  expect(JSON.stringify(error)).not.toContain(API_KEY);
});

test('util.inspect of an error keeps its stack for debugging, with its public fields', async () => {
  api.use(answer('status', 404, { code: 'transaction_not_found' }));

  const error = await api
    .client()
    .getTransaction('txn_missing')
    .catch((e) => e);
  const shown = inspect(error);

  expect(shown).toMatch(/^WalletApiError: transaction not found .*\n\s+at /);
  expect(shown).toContain('"code": "transaction_not_found"');
  expect(shown).not.toContain(API_KEY);
});
