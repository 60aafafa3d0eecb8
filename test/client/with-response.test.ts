import { inspect } from 'node:util';
import { describe, expect, test, vi } from 'vitest';
import { WalletApiError, WalletRequestValidationError } from '../../src/index.js';
import {
  API_KEY,
  depositResult,
  providerList,
  statusResult,
  USER_TOKEN,
  withdrawResult,
} from '../helpers/api-server.js';
import { validDeposit as deposit } from '../helpers/error-fixtures.js';
import { TRANSPORTS, useScriptedApi } from '../helpers/scripted-api.js';

const api = useScriptedApi();

describe.each(TRANSPORTS)('over %s', (transport) => {
  test('withResponse gives the data and the status, headers and x-request-id of the answer', async () => {
    api.answer({
      status: 200,
      body: statusResult,
      headers: { 'x-request-id': 'req_7f3a', 'x-extra': 'yes' },
    });

    const { data, response } = await api.client(transport).getTransaction('txn_c2b_001').withResponse();

    expect(data).toEqual(statusResult);
    expect(response).toMatchObject({ status: 200, requestId: 'req_7f3a', attempts: 1 });
    expect(response.headers.get('X-Extra')).toBe('yes');
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.durationMs).toBeGreaterThanOrEqual(0);
  });

  test('response headers that echo the API key or the user token are redacted, read or inspected', async () => {
    api.answer({
      status: 201,
      body: depositResult,
      headers: { 'x-echo-key': API_KEY, 'x-echo-auth': `Bearer ${USER_TOKEN}`, 'x-request-id': 'req_9' },
    });

    const { response } = await api
      .client(transport)
      .deposit(deposit, { userToken: USER_TOKEN })
      .withResponse();

    expect(response.headers.get('x-echo-key')).toBe('[redacted]');
    expect(response.headers.get('X-Echo-Auth')).toBe('Bearer [redacted]');
    expect(response.headers.get('x-request-id')).toBe('req_9');
    expect(response.headers.get('x-absent')).toBeNull();
    const shown = `${inspect(response, { showHidden: true, depth: 10 })}${JSON.stringify(response)}`;
    expect(shown).not.toContain(API_KEY);
    expect(shown).not.toContain(USER_TOKEN);
  });

  test('the response is the answer as it arrived, however late withResponse is called', async () => {
    api.answer({ status: 200, body: statusResult, headers: { 'x-request-id': 'req_once' } });

    const promise = api.client(transport).getTransaction('txn_c2b_001');
    const first = await promise.withResponse();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const later = await promise.withResponse();

    expect(later.response).toEqual(first.response);
    expect(later.response.requestId).toBe('req_once');
    expect(later.data).toBe(first.data);
  });

  test('inspecting a settled call, hidden parts included, shows neither the API key nor the user token', async () => {
    api.answer({ status: 201, body: depositResult });

    const promise = api.client(transport).deposit(deposit, { userToken: USER_TOKEN });
    await promise.withResponse();
    const shown = inspect(promise, { depth: 20, showHidden: true, getters: true });

    expect(shown).toContain('withResponse');
    expect(shown).not.toContain(API_KEY);
    expect(shown).not.toContain(USER_TOKEN);
  });

  test('a call that succeeded on its third attempt reports three attempts and the last answer', async () => {
    api.answer(
      { status: 503, body: {}, headers: { 'x-request-id': 'req_1' } },
      { drop: true },
      { status: 201, body: depositResult, headers: { 'x-request-id': 'req_3' } },
    );

    const { data, response } = await api
      .client(transport)
      .deposit(deposit, { userToken: USER_TOKEN })
      .withResponse();

    expect(data).toEqual(depositResult);
    expect(response).toMatchObject({ status: 201, requestId: 'req_3', attempts: 3 });
    expect(api.seen).toHaveLength(3);
  });

  test('every method has withResponse, and awaiting the promise still gives the data alone', async () => {
    const client = api.client(transport);
    api.answer({ status: 200, body: withdrawResult });
    const withdrawal = client.withdraw({
      email: 'a@example.com',
      reference_id: 'payout-77',
      amount: 120.5,
      currency: 'KES',
    });
    expect(await withdrawal).toEqual(withdrawResult);
    expect((await withdrawal.withResponse()).data).toEqual(withdrawResult);

    api.answer({ status: 200, body: providerList });
    const providers = await client.listProviders({ userToken: USER_TOKEN }).withResponse();
    expect(providers.data).toEqual(providerList);
    expect(providers.response.requestId).toBeUndefined();

    api.answer({ status: 200, body: depositResult });
    expect(await client.deposit(deposit, { userToken: USER_TOKEN })).toEqual(depositResult);
  });

  test('a refused call rejects withResponse and the plain await with the same error', async () => {
    api.answer({
      status: 404,
      body: { code: 'transaction_not_found', message: 'no such transaction' },
      headers: { 'x-request-id': 'req_404' },
    });
    const call = api.client(transport).getTransaction('txn_missing');

    const viaResponse = await call.withResponse().catch((error: unknown) => error);
    const viaAwait = await call.catch((error: unknown) => error);

    expect(viaResponse).toBeInstanceOf(WalletApiError);
    expect(viaResponse).toBe(viaAwait);
    expect(viaResponse).toMatchObject({ status: 404, requestId: 'req_404' });
  });
});

test('a call refused before sending rejects withResponse without an unhandled rejection of the plain promise', async () => {
  const unhandled = vi.fn();
  process.on('unhandledRejection', unhandled);
  try {
    const error = await api
      .client('node')
      .getTransaction('')
      .withResponse()
      .catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 20));

    expect(error).toBeInstanceOf(WalletRequestValidationError);
    expect(unhandled).not.toHaveBeenCalled();
    expect(api.seen).toHaveLength(0);
  } finally {
    process.off('unhandledRejection', unhandled);
  }
});
