import { afterEach, describe, expect, test, vi } from 'vitest';
import { WalletConfigError } from '../../src/index.js';
import { API_KEY, statusResult, USER_TOKEN } from '../helpers/api-server.js';
import { TRANSPORTS, useScriptedApi } from '../helpers/scripted-api.js';

const api = useScriptedApi();

function recordingLogger() {
  return { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe.each(TRANSPORTS)('over %s', (transport) => {
  test('at the default level warn, a retry is logged and the attempts are not', async () => {
    const logger = recordingLogger();
    api.answer({ status: 503, body: {} }, { status: 200, body: statusResult });

    await api.client(transport, { logger }).getTransaction('txn_c2b_001');

    expect(logger.debug).not.toHaveBeenCalled();
    expect(logger.warn).toHaveBeenCalledOnce();
    expect(logger.warn.mock.calls[0]?.[1]).toMatchObject({ endpoint: 'status', attempt: 1, status: 503 });
  });

  test('at debug each attempt is logged with its status, duration, attempt number and request id', async () => {
    const logger = recordingLogger();
    api.answer(
      { status: 503, body: {}, headers: { 'x-request-id': 'req_a' } },
      { status: 200, body: statusResult, headers: { 'x-request-id': 'req_b' } },
    );

    await api.client(transport, { logger, logLevel: 'debug' }).getTransaction('txn_c2b_001');

    expect(logger.debug.mock.calls.map(([, meta]) => meta)).toEqual([
      { endpoint: 'status', attempt: 1, status: 503, durationMs: expect.any(Number), requestId: 'req_a' },
      { endpoint: 'status', attempt: 2, status: 200, durationMs: expect.any(Number), requestId: 'req_b' },
    ]);
    expect(logger.debug.mock.calls[1]?.[0]).toBe('GET merchants/transactions/status/txn_c2b_001 200');
  });

  test('an attempt that got no answer is logged with how it failed and no status', async () => {
    const logger = recordingLogger();
    api.answer({ drop: true }, { status: 200, body: statusResult });

    await api.client(transport, { logger, logLevel: 'debug' }).getTransaction('txn_c2b_001');

    expect(logger.debug.mock.calls[0]?.[0]).toBe('GET merchants/transactions/status/txn_c2b_001 network');
    expect(logger.debug.mock.calls[0]?.[1]).toMatchObject({ attempt: 1, status: undefined });
  });
});

test('at error a retry warning is not passed on, and off silences the logger', async () => {
  for (const logLevel of ['error', 'off'] as const) {
    const logger = recordingLogger();
    api.answer({ status: 503, body: {} }, { status: 200, body: statusResult });

    await api.client('node', { logger, logLevel }).getTransaction('txn_c2b_001');

    expect(Object.values(logger).every((method) => method.mock.calls.length === 0)).toBe(true);
  }
});

test('WALLET_LOG sets the level when the option is absent; the option wins over it', async () => {
  vi.stubEnv('WALLET_LOG', 'debug');
  const fromEnv = recordingLogger();
  const fromOption = recordingLogger();
  api.answer({ status: 200, body: statusResult });

  await api.client('node', { logger: fromEnv }).getTransaction('txn_c2b_001');
  await api.client('node', { logger: fromOption, logLevel: 'warn' }).getTransaction('txn_c2b_001');

  expect(fromEnv.debug).toHaveBeenCalledOnce();
  expect(fromOption.debug).not.toHaveBeenCalled();
});

test('without a logger, a level asked for through WALLET_LOG logs to the console', async () => {
  vi.stubEnv('WALLET_LOG', 'debug');
  const debug = vi.spyOn(console, 'debug').mockImplementation(() => {});
  api.answer({ status: 200, body: statusResult });

  await api.client('node').getTransaction('txn_c2b_001');

  expect(debug).toHaveBeenCalledOnce();
  expect(JSON.stringify(debug.mock.calls)).not.toContain(API_KEY);
});

test('without a logger and without a level, nothing is logged (a console call would fail this test)', async () => {
  api.answer({ status: 503, body: {} }, { status: 200, body: statusResult });

  await expect(api.client('node').getTransaction('txn_c2b_001')).resolves.toEqual(statusResult);
});

test.each([
  ['the option', { logLevel: 'verbose' }, undefined],
  ['WALLET_LOG', {}, 'loud'],
])('an unknown level from %s is refused naming logLevel', (_source, options, env) => {
  if (env) vi.stubEnv('WALLET_LOG', env);

  expect(() => api.client('node', options as never)).toThrow(WalletConfigError);
  expect(() => api.client('node', options as never)).toThrow(
    /logLevel.*'debug', 'info', 'warn', 'error', 'off'/,
  );
});

test('a user token never reaches the logger at debug', async () => {
  const logger = recordingLogger();
  api.answer({
    status: 200,
    body: {
      default_deposit_provider: 'mpesa',
      default_withdraw_provider: 'mpesa',
      payment_providers: { mobile_payment_providers: [] },
    },
  });

  await api.client('node', { logger, logLevel: 'debug' }).listProviders({ userToken: USER_TOKEN });

  expect(logger.debug).toHaveBeenCalledOnce();
  expect(JSON.stringify(logger.debug.mock.calls)).not.toContain(USER_TOKEN);
});
