import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { WalletApiError, WalletClient, WalletOutcomeUnknownError } from '../../src/index.js';
import { rejectionOf } from '../helpers/error-fixtures.js';
import { closedPortUrl } from '../helpers/http-server.js';
import { ALICE, DEMO_KEY, type Running, runSandbox } from '../testing/helpers.js';
import { type RunningNginx, startNginx } from './nginx.js';

let running: Running;
let nginx: RunningNginx;
let proxied = '';
let deadUpstream = '';
let transactionId = '';
let references = 0;

beforeAll(async () => {
  running = await runSandbox();
  nginx = await startNginx([running.server.baseUrl, await closedPortUrl()], '1s');
  [proxied = '', deadUpstream = ''] = nginx.urls;
  const direct = new WalletClient({ apiKey: DEMO_KEY, baseUrl: running.server.baseUrl });
  transactionId = (await direct.withdraw({ email: 'alice@example.com', amount: 2, currency: 'KES' }))
    .transaction_id;
});
afterAll(async () => {
  await nginx?.stop();
  await running?.close();
});
beforeEach(() => {
  vi.spyOn(Math, 'random').mockReturnValue(0);
  running.sandbox.faults.clear();
});

const client = (baseUrl: string) => new WalletClient({ apiKey: DEMO_KEY, baseUrl, timeoutMs: 5_000 });
const held = (referenceId: string) =>
  running.sandbox.transactions().filter((t) => t.reference_id === referenceId);
const nginxPage = (status: number, reason: string) =>
  expect.stringMatching(new RegExp(`<title>${status} ${reason}</title>[\\s\\S]*nginx`));

describe('behind a real nginx reverse proxy', () => {
  test('a status lookup through nginx returns what the sandbox has', async () => {
    await expect(client(proxied).getTransaction(transactionId)).resolves.toMatchObject({
      transaction_id: transactionId,
      amount: '2.00',
    });
  });

  test("a GET whose upstream drops the connection every time is retried, then nginx's 502 page surfaces as WalletApiError", async () => {
    const fault = running.sandbox.faults.inject({ route: 'status', kind: 'drop-before', every: 1 });

    const error = await rejectionOf(client(proxied).getTransaction(transactionId));

    expect(error).toBeInstanceOf(WalletApiError);
    expect(error).toMatchObject({
      status: 502,
      code: 'unknown_error',
      endpoint: 'status',
      body: nginxPage(502, 'Bad Gateway'),
    });
    expect(fault.fired).toBe(3);
  });

  test("a GET slower than nginx's proxy_read_timeout is retried, then nginx's 504 page surfaces as WalletApiError", async () => {
    const fault = running.sandbox.faults.inject({ route: 'providers', kind: 'latency', ms: 1_500, every: 1 });

    const error = await rejectionOf(client(proxied).listProviders({ userToken: ALICE }));

    expect(error).toBeInstanceOf(WalletApiError);
    expect(error).toMatchObject({
      status: 504,
      code: 'unknown_error',
      endpoint: 'providers',
      body: nginxPage(504, 'Gateway Time-out'),
    });
    expect(fault.fired).toBe(3);
  });

  test('a GET whose upstream server is down gets 502 on every attempt and surfaces it', async () => {
    const error = await rejectionOf(client(deadUpstream).getTransaction(transactionId));

    expect(error).toBeInstanceOf(WalletApiError);
    expect(error).toMatchObject({ status: 502, code: 'unknown_error', body: nginxPage(502, 'Bad Gateway') });
  });

  test('a withdrawal applied upstream whose connection then drops ends in WalletOutcomeUnknownError, paid once', async () => {
    const referenceId = `nginx-w-${++references}`;
    running.sandbox.faults.inject({ route: 'withdraw', kind: 'drop-after' });

    const error = await rejectionOf(
      client(proxied).withdraw({
        reference_id: referenceId,
        email: 'bob@example.com',
        amount: 4,
        currency: 'KES',
      }),
    );

    expect(error).toBeInstanceOf(WalletOutcomeUnknownError);
    expect(error).toMatchObject({ referenceId, attempts: 2, endpoint: 'withdraw' });
    expect(held(referenceId)).toHaveLength(1);
  });

  test('a deposit answered 502 by nginx once succeeds on its retry, paid once', async () => {
    const referenceId = `nginx-d-${++references}`;
    running.sandbox.faults.inject({ route: 'deposit', kind: 'drop-before' });

    const result = await client(proxied).deposit(
      { reference_id: referenceId, amount: 4, currency: 'KES' },
      { userToken: ALICE },
    );

    expect(result).toMatchObject({ reference_id: referenceId, transaction_status: 'completed' });
    expect(held(referenceId).map((t) => t.transaction_id)).toEqual([result.transaction_id]);
  });

  test('a deposit slower than proxy_read_timeout once gets 504, and its retry is applied while the first is still running, paid once', async () => {
    const referenceId = `nginx-slow-${++references}`;
    running.sandbox.faults.inject({ route: 'deposit', kind: 'latency', ms: 1_500 });

    const result = await client(proxied).deposit(
      { reference_id: referenceId, amount: 4, currency: 'KES' },
      { userToken: ALICE },
    );
    // The first request is still sleeping upstream; once it runs it meets the used reference id.
    await sleep(700);

    expect(result).toMatchObject({ reference_id: referenceId, transaction_status: 'completed' });
    expect(held(referenceId).map((t) => t.transaction_id)).toEqual([result.transaction_id]);
  });

  test('a deposit whose upstream server is down ends unknown: nginx answered 502, which may follow an applied request', async () => {
    const referenceId = `nginx-down-${++references}`;

    const error = await rejectionOf(
      client(deadUpstream).deposit(
        { reference_id: referenceId, amount: 4, currency: 'KES' },
        { userToken: ALICE },
      ),
    );

    expect(error).toBeInstanceOf(WalletOutcomeUnknownError);
    expect(error).toMatchObject({ referenceId, attempts: 3 });
    expect(held(referenceId)).toHaveLength(0);
  });
});
