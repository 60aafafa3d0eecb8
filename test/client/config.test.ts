import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { WalletClient, type WalletClientOptions, WalletConfigError, WalletError } from '../../src/index.js';
import { API_KEY, answer, BASE_URL, statusResult, useApiServer } from '../helpers/api-server.js';

const api = useApiServer();
const valid = { apiKey: API_KEY, baseUrl: BASE_URL };

// The machine running the tests may have these set; every test starts without them.
beforeEach(() => {
  vi.stubEnv('WALLET_API_KEY', undefined);
  vi.stubEnv('WALLET_BASE_URL', undefined);
});
afterEach(() => {
  vi.unstubAllEnvs();
});

/** Constructs a client with `options` and returns the WalletConfigError it threw. */
function configError(options: unknown): WalletConfigError {
  let thrown: unknown;
  try {
    new WalletClient(options as WalletClientOptions);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).not.toBeInstanceOf(TypeError);
  expect(thrown).toBeInstanceOf(WalletError);
  expect(thrown).toBeInstanceOf(WalletConfigError);
  return thrown as WalletConfigError;
}

function expectRejectedOption(options: unknown, option: string) {
  const error = configError(options);
  expect(error.option).toBe(option);
  expect(error.message).toContain(option);
}

describe('apiKey', () => {
  test('a client without apiKey and without WALLET_API_KEY is refused naming apiKey and the variable', () => {
    const error = configError({ baseUrl: BASE_URL });

    expect(error.option).toBe('apiKey');
    expect(error.message).toContain('WALLET_API_KEY');
  });

  test.each([
    ['empty', ''],
    ['with a line break', 'sk_test_abc\nX-Evil: 1'],
    ['with a space', 'sk_test abc'],
    ['with a tab', 'sk_test\tabc'],
    ['with non-ASCII characters', 'sk_tést'],
    ['a number', 12345],
    ['null', null],
  ])('an apiKey that is %s is refused naming apiKey', (_label, apiKey) => {
    expectRejectedOption({ ...valid, apiKey }, 'apiKey');
  });

  test('WALLET_API_KEY and WALLET_BASE_URL are used when the options are absent', async () => {
    vi.stubEnv('WALLET_API_KEY', 'sk_env_0a1b2c');
    vi.stubEnv('WALLET_BASE_URL', `${BASE_URL}/env-prefix`);
    const { http, HttpResponse } = await import('msw');
    api.use(
      http.get(`${BASE_URL}/env-prefix/merchants/transactions/status/:id`, ({ request }) =>
        HttpResponse.json({ ...statusResult, seen_key: request.headers.get('x-api-key') }),
      ),
    );

    const result = await new WalletClient().getTransaction('txn_c2b_001');

    expect(result.seen_key).toBe('sk_env_0a1b2c');
  });

  test('an apiKey and baseUrl given as options win over the environment', async () => {
    vi.stubEnv('WALLET_API_KEY', 'sk_env_0a1b2c');
    vi.stubEnv('WALLET_BASE_URL', 'https://env.wallet.test');
    api.use(answer('status', 200, statusResult));

    await new WalletClient(valid).getTransaction('txn_c2b_001');

    expect(api.seen[0]?.headers['x-api-key']).toBe(API_KEY);
    expect(api.seen[0]?.url.startsWith(BASE_URL)).toBe(true);
  });

  test('a malformed WALLET_API_KEY is refused like a malformed option', () => {
    vi.stubEnv('WALLET_API_KEY', 'sk env');

    expectRejectedOption({ baseUrl: BASE_URL }, 'apiKey');
  });
});

describe('baseUrl', () => {
  test('a client without baseUrl and without WALLET_BASE_URL is refused naming baseUrl and the variable', () => {
    const error = configError({ apiKey: API_KEY });

    expect(error.option).toBe('baseUrl');
    expect(error.message).toContain('WALLET_BASE_URL');
  });

  test.each([
    ['empty', ''],
    ['relative', '/merchants'],
    ['without a scheme', 'api.wallet.test'],
    ['ftp:', 'ftp://api.wallet.test'],
    ['file:', 'file:///etc/passwd'],
    ['plain http to a public host', 'http://api.wallet.test'],
    ['plain http to a private address', 'http://10.0.0.7:8080'],
    ['plain http to a host that only starts like localhost', 'http://localhost.evil.test'],
    ['plain http to a host that only starts like 127.0.0.1', 'http://127.0.0.1.evil.test'],
    ['with credentials', 'https://merchant:hunter2@api.wallet.test'],
    ['with a query', 'https://api.wallet.test/?env=sandbox'],
    ['with a fragment', 'https://api.wallet.test/#v1'],
    ['a URL object, not a string', new URL(BASE_URL)],
  ])('a baseUrl that is %s is refused naming baseUrl', (_label, baseUrl) => {
    expectRejectedOption({ ...valid, baseUrl }, 'baseUrl');
  });

  test('the refusal of a baseUrl with credentials does not repeat the password', () => {
    const error = configError({ ...valid, baseUrl: 'https://merchant:hunter2@api.wallet.test' });

    expect(error.message).not.toContain('hunter2');
    expect(JSON.stringify(error)).not.toContain('hunter2');
  });

  test.each([
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080/'],
    ['http://127.42.0.9', 'http://127.42.0.9/'],
    ['http://localhost:3000', 'http://localhost:3000/'],
    ['http://[::1]:4000', 'http://[::1]:4000/'],
    ['https://api.wallet.test/wallet/v1', 'https://api.wallet.test/wallet/v1/'],
  ])('%s is accepted and resolves to %s', (baseUrl, resolved) => {
    expect(new WalletClient({ ...valid, baseUrl }).baseUrl).toBe(resolved);
  });
});

describe('numeric options', () => {
  test.each([
    ['timeoutMs', 0],
    ['timeoutMs', -1],
    ['timeoutMs', Number.NaN],
    ['timeoutMs', Number.POSITIVE_INFINITY],
    ['timeoutMs', 2 ** 31],
    ['timeoutMs', '30000'],
    ['timeoutMs', null],
    ['maxRetries', -1],
    ['maxRetries', 11],
    ['maxRetries', 1.5],
    ['maxRetries', Number.NaN],
    ['maxRetries', '2'],
    ['maxRetries', null],
  ])('%s of %s is refused naming the option', (option, value) => {
    expectRejectedOption({ ...valid, [option]: value }, option);
  });

  test.each([
    ['timeoutMs', 1],
    ['timeoutMs', 2_147_483_647],
    ['maxRetries', 0],
    ['maxRetries', 10],
  ])('%s of %s is accepted', (option, value) => {
    expect(() => new WalletClient({ ...valid, [option]: value })).not.toThrow();
  });
});

describe('headers', () => {
  test.each([
    'x-api-key',
    'X-API-Key',
    'Authorization',
    'authorization',
    'content-type',
    'Content-Type',
    'Content-Length',
    'transfer-encoding',
    'Transfer-Encoding',
    'Host',
    'HOST',
    'connection',
    'Connection',
    'Accept-Encoding',
  ])('the reserved header %s is refused naming it', (name) => {
    expectRejectedOption({ ...valid, headers: { [name]: 'value' } }, `headers.${name}`);
  });

  test.each([
    ['a name with a space', 'X Trace', 'abc'],
    ['a name with a colon', 'X-Trace:', 'abc'],
    ['an empty name', '', 'abc'],
    ['a value with a line break', 'X-Trace', 'abc\r\nX-Injected: 1'],
    ['a value that is a number', 'X-Trace', 42],
    ['a value with characters beyond Latin-1', 'X-Trace', 'ab€'],
  ])('a header with %s is refused naming it', (_label, name, value) => {
    expectRejectedOption({ ...valid, headers: { [name]: value } }, `headers.${name}`);
  });

  test.each([
    ['an array', [['X-Trace', 'abc']]],
    ['a string', 'X-Trace: abc'],
    ['null', null],
  ])('headers that are %s are refused naming headers', (_label, headers) => {
    expectRejectedOption({ ...valid, headers }, 'headers');
  });
});

describe('fetch and logger', () => {
  test.each([
    ['a string', 'fetch'],
    ['an object', {}],
    ['null', null],
  ])('a fetch that is %s is refused naming fetch', (_label, fetch) => {
    expectRejectedOption({ ...valid, fetch }, 'fetch');
  });

  test.each(['debug', 'info', 'warn', 'error'])(
    'a logger whose %s is not a function is refused naming it',
    (level) => {
      expectRejectedOption({ ...valid, logger: { [level]: 'loud' } }, `logger.${level}`);
    },
  );

  test.each([
    ['a string', 'console'],
    ['null', null],
  ])('a logger that is %s is refused naming logger', (_label, logger) => {
    expectRejectedOption({ ...valid, logger }, 'logger');
  });

  test('a logger with only some of the methods is accepted', () => {
    expect(() => new WalletClient({ ...valid, logger: { warn: () => {} } })).not.toThrow();
  });

  test('a custom fetch is used instead of the global one', async () => {
    api.use(answer('status', 200, { ...statusResult, transaction_status: 'pending' }));
    const fetch = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) =>
      Response.json(statusResult),
    );

    const result = await new WalletClient({ ...valid, fetch }).getTransaction('txn_c2b_001');

    expect(result).toEqual(statusResult);
    expect(fetch).toHaveBeenCalledTimes(1);
    const [input, init] = fetch.mock.calls[0] ?? [];
    const request = new Request(input as RequestInfo | URL, init);
    expect(request.url).toBe(`${BASE_URL}/merchants/transactions/status/txn_c2b_001`);
    expect(request.headers.get('x-api-key')).toBe(API_KEY);
    expect(api.seen).toEqual([]);
  });
});

test.each([
  ['null', null],
  ['a string', API_KEY],
])('options that are %s are refused naming options', (_label, options) => {
  expectRejectedOption(options, 'options');
});

describe('every problem at once', () => {
  test('a client with several bad options is refused with one WalletConfigError naming each, in option order', () => {
    const error = configError({
      apiKey: 'sk test',
      baseUrl: 'http://api.wallet.test',
      timeoutMs: 0,
      maxRetries: 1.5,
      headers: { Authorization: 'Bearer x', 'X Trace': 'abc' },
      fetch: 'fetch',
      logger: { warn: 'loud' },
      journal: {},
    });

    expect(error.issues.map((issue) => issue.path)).toEqual([
      'apiKey',
      'baseUrl',
      'timeoutMs',
      'maxRetries',
      'headers.Authorization',
      'headers.X Trace',
      'fetch',
      'logger.warn',
      'journal.record',
      'journal.update',
      'journal.updateByTransactionId',
      'journal.get',
      'journal.list',
    ]);
    expect(error.option).toBe('apiKey');
    for (const issue of error.issues) expect(error.message).toContain(`${issue.path}: ${issue.message}`);
  });

  test('unknown keys are named together with bad values of known ones', () => {
    const error = configError({ ...valid, timeout: 5, maxRetries: -1 });

    expect(error.issues).toEqual([
      { path: 'timeout', message: 'is not an option of WalletClient' },
      { path: 'maxRetries', message: 'must be an integer from 0 to 10' },
    ]);
  });

  test('missing apiKey and baseUrl are both named, each with its environment variable', () => {
    const error = configError({});

    expect(error.issues).toEqual([
      { path: 'apiKey', message: 'is required: pass it or set WALLET_API_KEY' },
      { path: 'baseUrl', message: 'is required: pass it or set WALLET_BASE_URL' },
    ]);
    expect(error.message).toBe(
      'Invalid WalletClient options: apiKey: is required: pass it or set WALLET_API_KEY; baseUrl: is required: pass it or set WALLET_BASE_URL',
    );
  });

  test('the issues of a refused client are in its toJSON, and the refused API key is not', () => {
    const error = configError({ apiKey: 'sk_live secret', baseUrl: 'ftp://api.wallet.test' });

    expect(error.toJSON()).toMatchObject({
      name: 'WalletConfigError',
      option: 'apiKey',
      issues: error.issues,
    });
    expect(JSON.stringify(error)).not.toContain('secret');
  });

  test('a refused option builds nothing: the custom fetch of a refused client is never called', () => {
    const fetch = vi.fn();
    configError({ ...valid, fetch, timeoutMs: -5 });

    expect(fetch).not.toHaveBeenCalled();
  });
});

test('a WalletConfigError about one option lists that option as its only issue', () => {
  const error = new WalletConfigError('WALLET_BASE_URL', 'is not set');

  expect(error.message).toBe('WALLET_BASE_URL: is not set');
  expect(error.option).toBe('WALLET_BASE_URL');
  expect(error.issues).toEqual([{ path: 'WALLET_BASE_URL', message: 'is not set' }]);
});
