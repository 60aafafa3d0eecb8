import { describe, expect, test, vi } from 'vitest';
import {
  WalletApiError,
  WalletClient,
  type WalletClientOptions,
  WalletConfigError,
  WalletConnectionError,
  WalletRequestValidationError,
} from '../../src/index.js';
import { API_KEY, statusResult, USER_AGENT, USER_TOKEN } from '../helpers/api-server.js';
import { TRANSPORTS, useScriptedApi } from '../helpers/scripted-api.js';

const api = useScriptedApi();

describe.each(TRANSPORTS)('over %s', (transport) => {
  test('per-call maxRetries replaces the client default for that call only', async () => {
    const client = api.client(transport, { maxRetries: 0 });
    api.answer({ drop: true }, { drop: true }, { drop: true }, { status: 200, body: statusResult });

    expect(await client.getTransaction('txn_c2b_001', { maxRetries: 3 })).toEqual(statusResult);
    expect(api.seen).toHaveLength(4);

    // A 503 rather than a dropped connection: a drop on the kept-alive socket would be retried once
    // as a stale connection whatever maxRetries says.
    api.seen.length = 0;
    api.answer({ status: 503, body: {} });
    await expect(client.getTransaction('txn_c2b_001')).rejects.toBeInstanceOf(WalletApiError);
    expect(api.seen).toHaveLength(1);
  });

  test('per-call maxRetries of 0 makes a single attempt although the client retries', async () => {
    api.answer({ drop: true });

    const error = await api
      .client(transport, { maxRetries: 5 })
      .getTransaction('txn_c2b_001', { maxRetries: 0 })
      .catch((e: unknown) => e);

    expect(error).toMatchObject({ attempts: 1 });
    expect(api.seen).toHaveLength(1);
  });

  test('per-call headers are sent over the client headers, whose other names stay', async () => {
    api.answer({ status: 200, body: statusResult });
    const client = api.client(transport, { headers: { 'X-Shop': 'one', 'X-Trace': 'client' } });

    await client.getTransaction('txn_c2b_001', { headers: { 'x-trace': 'call-7', 'X-Order': '1042' } });

    expect(api.seen[0]?.headers).toMatchObject({
      'x-shop': 'one',
      'x-trace': 'call-7',
      'x-order': '1042',
      'x-api-key': API_KEY,
    });
  });

  test('per-call headers apply to their call only: the calls around it send the client headers alone', async () => {
    api.answer(...Array.from({ length: 4 }, () => ({ status: 200, body: statusResult })));
    const client = api.client(transport, { headers: { 'X-Trace': 'client' } });

    await client.getTransaction('txn_c2b_001');
    await client.getTransaction('txn_c2b_001', { headers: { 'x-trace': 'call-2', 'x-order': '7' } });
    await client.getTransaction('txn_c2b_001');
    await client.getTransaction('txn_c2b_001', { headers: { 'x-order': '9' } });

    expect(api.seen.map(({ headers }) => [headers['x-trace'], headers['x-order']])).toEqual([
      ['client', undefined],
      ['call-2', '7'],
      ['client', undefined],
      ['client', '9'],
    ]);
  });

  test('the user-agent names the SDK and runtime with their versions', async () => {
    api.answer({ status: 200, body: statusResult });

    await api.client(transport).getTransaction('txn_c2b_001');

    expect(api.seen[0]?.headers['user-agent']).toBe(USER_AGENT);
    expect(USER_AGENT).toMatch(/^merchant-wallet\/\d+\.\d+\.\d+\S* node\/\d+\.\d+\.\d+$/);
  });

  test('the user-agent is replaced by the client headers, and by a call headers over those', async () => {
    api.answer({ status: 200, body: statusResult });
    const client = api.client(transport, { headers: { 'User-Agent': 'shop-backend/4.2' } });

    await client.getTransaction('txn_c2b_001');
    await client.getTransaction('txn_c2b_001', { headers: { 'user-agent': 'payout-job/1' } });

    expect(api.seen.map((request) => request.headers['user-agent'])).toEqual([
      'shop-backend/4.2',
      'payout-job/1',
    ]);
  });
});

describe('per-call headers', () => {
  test.each([
    'x-api-key',
    'Authorization',
    'Content-Type',
    'content-length',
    'Transfer-Encoding',
    'host',
    'Connection',
    'accept-encoding',
  ])(
    'the reserved header %s is refused with a WalletRequestValidationError naming it, and nothing is sent',
    async (name) => {
      const error = await api
        .client('node')
        .deposit(
          { reference_id: 'order-1', amount: 1, currency: 'KES' },
          { userToken: USER_TOKEN, headers: { [name]: 'x' } },
        )
        .catch((e: unknown) => e);

      expect(error).toBeInstanceOf(WalletRequestValidationError);
      expect((error as WalletRequestValidationError).issues).toEqual([
        { path: `options.headers.${name}`, message: expect.stringContaining('set by the client') },
      ]);
      expect(api.seen).toHaveLength(0);
    },
  );

  test('a header value with a line break and a bad maxRetries are both named', async () => {
    const error = await api
      .client('node')
      .getTransaction('txn_c2b_001', { headers: { 'X-Trace': 'a\r\nX-Injected: 1' }, maxRetries: 11 })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(WalletRequestValidationError);
    expect((error as WalletRequestValidationError).issues.map((issue) => issue.path)).toEqual([
      'options.maxRetries',
      'options.headers.X-Trace',
    ]);
    expect(api.seen).toHaveLength(0);
  });

  test.each([
    ['negative', -1],
    ['a fraction', 1.5],
    ['a string', '2'],
  ])('a per-call maxRetries that is %s is refused naming it', async (_label, maxRetries) => {
    const error = await api
      .client('node')
      .getTransaction('txn_c2b_001', { maxRetries: maxRetries as number })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(WalletRequestValidationError);
    expect((error as Error).message).toContain('options.maxRetries');
  });
});

describe('withOptions', () => {
  test('the derived client sends through the same transport with its own defaults; the parent keeps its own', async () => {
    const fetch = vi.fn((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
    const parent = api.client('fetch', { fetch, maxRetries: 0, headers: { 'x-shop': 'one' } });
    const derived = parent.withOptions({ maxRetries: 2, headers: { 'x-job': 'payouts' } });
    api.answer({ drop: true }, { drop: true }, { status: 200, body: statusResult });

    expect(await derived.getTransaction('txn_c2b_001')).toEqual(statusResult);
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(api.seen[2]?.headers).toMatchObject({ 'x-job': 'payouts', 'x-api-key': API_KEY });
    expect(api.seen[2]?.headers['x-shop']).toBeUndefined();

    api.answer({ drop: true });
    await expect(parent.getTransaction('txn_c2b_001')).rejects.toBeInstanceOf(WalletConnectionError);
    expect(fetch).toHaveBeenCalledTimes(4);
    expect(derived).toBeInstanceOf(WalletClient);
  });

  test('options not given to withOptions are the parent options, environment fallbacks included', async () => {
    api.answer({ status: 200, body: statusResult });
    const derived = api.client('node', { headers: { 'x-shop': 'one' } }).withOptions({ timeoutMs: 5_000 });

    await derived.getTransaction('txn_c2b_001');

    expect(api.seen[0]?.headers).toMatchObject({ 'x-shop': 'one', 'x-api-key': API_KEY });
  });

  test('on the node transport a derived client reuses the parent kept-alive connection', async () => {
    api.answer({ status: 200, body: statusResult });
    const parent = api.client('node');

    await parent.getTransaction('txn_c2b_001');
    await parent.withOptions({ timeoutMs: 5_000 }).getTransaction('txn_c2b_001');

    expect(api.seen).toHaveLength(2);
    expect(api.seen[1]?.remotePort).toBe(api.seen[0]?.remotePort);
  });

  test('closing a derived client stops it but leaves the parent and its connections open', async () => {
    api.answer({ status: 200, body: statusResult });
    const parent = api.client('node');
    const derived = parent.withOptions({ maxRetries: 0 });
    await parent.getTransaction('txn_c2b_001');

    await derived.close();

    await expect(derived.getTransaction('txn_c2b_001')).rejects.toThrow(/closed/);
    await expect(parent.getTransaction('txn_c2b_001')).resolves.toEqual(statusResult);
    expect(api.seen).toHaveLength(2);
    expect(api.seen[1]?.remotePort).toBe(api.seen[0]?.remotePort);
    await parent.close();
  });

  test('closing the parent stops the clients derived from it, and nothing more is sent', async () => {
    api.answer({ status: 200, body: statusResult });
    const parent = api.client('node');
    const derived = parent.withOptions({ timeoutMs: 5_000 });

    await parent.close();

    await expect(derived.getTransaction('txn_c2b_001')).rejects.toThrow(/closed/);
    expect(api.seen).toHaveLength(0);
  });

  test.each(['fetch', 'agent', 'maxSockets'])('%s cannot be changed by withOptions', (option) => {
    const parent = api.client('node');

    expect(() => parent.withOptions({ [option]: undefined } as WalletClientOptions)).toThrow(
      new RegExp(`${option}: cannot be changed by withOptions`),
    );
  });

  test('fetch cannot be changed by withOptions, since the transport is shared', () => {
    const parent = api.client('node');
    const derive = () => parent.withOptions({ fetch: globalThis.fetch } as WalletClientOptions);

    expect(derive).toThrow(WalletConfigError);
    expect(derive).toThrow(/fetch: cannot be changed by withOptions/);
  });

  test('withOptions checks the new options like the constructor does', () => {
    const parent = api.client('node');

    expect(() => parent.withOptions({ maxRetries: 99 })).toThrow(WalletConfigError);
    expect(() => parent.withOptions({ headers: { Host: 'evil.example' } })).toThrow(/headers\.Host/);
    expect(() => parent.withOptions({ retries: 1 } as WalletClientOptions)).toThrow(/retries/);
  });
});
