import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { CONTROL_KEY_HEADER, type SandboxTransaction } from '../../src/testing/index.js';
import {
  ALICE,
  type ApiAnswer,
  callApi,
  DEMO_KEY,
  deposit,
  type Receiver,
  type Running,
  runSandbox,
  runWithReceiver,
  startPendingDeposit,
  startReceiver,
} from './helpers.js';

const KEY = 'control-key-for-tests';

let run: Running;
let receiver: Receiver;
let stop: () => Promise<void>;
beforeEach(async () => {
  ({ run, receiver, close: stop } = await runWithReceiver({ controlKey: KEY }));
});
afterEach(() => stop());

/** A control API call over real HTTP. */
function control(method: string, path: string, body?: unknown, key = KEY): Promise<ApiAnswer> {
  return callApi(run.server.baseUrl, {
    method,
    path: `/_sandbox${path}`,
    headers: { [CONTROL_KEY_HEADER]: key },
    ...(body === undefined ? {} : { body }),
  });
}

describe('control API access', () => {
  test('a missing or wrong key is refused with 401 and changes nothing', async () => {
    const { id } = await startPendingDeposit(run);
    const wrong = await control('POST', `/transactions/${id}/settle`, {}, 'not-the-key');
    const missing = await callApi(run.server.baseUrl, {
      method: 'POST',
      path: `/_sandbox/transactions/${id}/settle`,
    });
    expect([wrong.status, missing.status]).toEqual([401, 401]);
    expect(wrong.body).toMatchObject({ error: 'unauthorized' });
    expect(run.sandbox.transaction(id)?.transaction_status).toBe('pending');
  });

  test('a sandbox created without a control key has no control API', async () => {
    const plain = await runSandbox();
    try {
      const answer = await callApi(plain.server.baseUrl, {
        path: '/_sandbox/ledger',
        headers: { [CONTROL_KEY_HEADER]: KEY },
      });
      expect(answer.status).toBe(404);
    } finally {
      await plain.close();
    }
  });

  test('an unknown operation is 404, a wrong method 405 with Allow, a bad field 400 naming it', async () => {
    const unknown = await control('POST', '/teleport', {});
    const method = await control('GET', '/reset');
    const bad = await control('POST', '/clock/advance', { by: 'soon' });
    expect(unknown.status).toBe(404);
    expect([method.status, method.headers.get('allow')]).toEqual([405, 'POST']);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      error: 'invalid_request',
      message: expect.stringMatching(/^by: must be a duration/),
    });
  });

  test.each([
    ['/balances', /^target: must name exactly one of appId and email/],
    ['/users', /^user\.email: must be a non-empty string/],
    ['/tokens', /^email: must be a string/],
    ['/faults', /^fault\.kind: must be one of/],
    ['/webhooks/plan', /^plan\.mode: must be one of/],
    ['/clock/advance', /^by: must be a duration/],
  ])('POST %s with an empty body is a 400 naming the missing field', async (path, message) => {
    const answer = await control('POST', path, {});
    expect(answer.status).toBe(400);
    expect((answer.body as { message: string }).message).toMatch(message);
  });

  test('a body that is not a JSON object is a 400', async () => {
    const answer = await control('POST', '/balances', '[1]');
    expect(answer.body).toEqual({ error: 'invalid_request', message: 'body: must be a JSON object' });
  });

  test('control keys too short to protect anything are refused', async () => {
    await expect(runSandbox(undefined, { controlKey: 'short' })).rejects.toThrow(/options.controlKey/);
  });
});

describe('control operations', () => {
  test('settle completes a pending deposit and its webhook reaches the merchant', async () => {
    const { id } = await startPendingDeposit(run);
    const answer = await control('POST', `/transactions/${id}/settle`, {});
    expect(answer.status).toBe(200);
    expect((answer.body as { transaction: SandboxTransaction }).transaction.transaction_status).toBe(
      'completed',
    );
    await run.sandbox.webhooks.idle();
    expect(receiver.received.map((r) => r.body)).toEqual([
      expect.objectContaining({ transaction_id: id, transaction_status: 'completed' }),
    ]);
  });

  test('settle with status failed records the reason; settling twice is a 400', async () => {
    const { id } = await startPendingDeposit(run);
    await control('POST', `/transactions/${id}/settle`, {
      status: 'failed',
      failure_reason: 'user cancelled',
    });
    expect(run.sandbox.transaction(id)).toMatchObject({
      transaction_status: 'failed',
      failure_reason: 'user cancelled',
    });
    const again = await control('POST', `/transactions/${id}/settle`, {});
    expect(again.status).toBe(400);
    expect((again.body as { message: string }).message).toMatch(/^transactionId: is not a pending deposit/);
  });

  test('a webhook delivered twice arrives twice with the same body', async () => {
    const { id } = await startPendingDeposit(run);
    await control('POST', `/transactions/${id}/settle`, { delivery: 'twice' });
    await expect.poll(() => receiver.received.length).toBe(2);
    expect(receiver.received[0]?.body).toEqual(receiver.received[1]?.body);
  });

  test('a dropped webhook never arrives and the delivery log says dropped', async () => {
    const { id } = await startPendingDeposit(run);
    await control('POST', `/transactions/${id}/settle`, { delivery: 'drop' });
    await run.sandbox.webhooks.idle();
    expect(receiver.received).toEqual([]);
    const log = await control('GET', '/webhooks');
    expect(log.body).toEqual({
      deliveries: [expect.objectContaining({ id: 'whd_1', state: 'dropped', mode: 'drop', attempts: [] })],
    });
  });

  test('a late webhook waits for the clock, and advance delivers it at once', async () => {
    const { id } = await startPendingDeposit(run);
    await control('POST', `/transactions/${id}/settle`, { delivery: { mode: 'late', delayMs: 30_000 } });
    await run.sandbox.webhooks.idle();
    expect(receiver.received).toEqual([]);
    const advanced = await control('POST', '/clock/advance', { by: '30s' });
    expect(advanced.body).toMatchObject({ ran: 1, offset_ms: 30_000 });
    await run.sandbox.webhooks.idle();
    expect(receiver.received).toHaveLength(1);
  });

  test('an out-of-order webhook arrives after the next one', async () => {
    const first = await startPendingDeposit(run);
    const second = await startPendingDeposit(run);
    await control('POST', '/webhooks/plan', { mode: 'out-of-order' });
    await control('POST', `/transactions/${first.id}/settle`, {});
    await control('POST', `/transactions/${second.id}/settle`, {});
    await expect.poll(() => receiver.received.length).toBe(2);
    expect(receiver.received.map((r) => (r.body as { transaction_id: string }).transaction_id)).toEqual([
      second.id,
      first.id,
    ]);
  });

  test('a planned drop applies to the next webhook only', async () => {
    await control('POST', '/webhooks/plan', { mode: 'drop', event: 'transaction' });
    const first = await startPendingDeposit(run);
    const second = await startPendingDeposit(run);
    await control('POST', `/transactions/${first.id}/settle`, {});
    await control('POST', `/transactions/${second.id}/settle`, {});
    await run.sandbox.webhooks.idle();
    expect(receiver.received.map((r) => (r.body as { transaction_id: string }).transaction_id)).toEqual([
      second.id,
    ]);
  });

  test('redeliver sends a logged webhook again as a new delivery', async () => {
    const { id } = await startPendingDeposit(run);
    await control('POST', `/transactions/${id}/settle`, {});
    await run.sandbox.webhooks.idle();
    const answer = await control('POST', '/webhooks/whd_1/redeliver');
    expect(answer.body).toMatchObject({ delivery: { id: 'whd_2', redeliveryOf: 'whd_1' } });
    await run.sandbox.webhooks.idle();
    expect(receiver.received).toHaveLength(2);
    expect((await control('POST', '/webhooks/whd_9/redeliver')).status).toBe(400);
  });

  test('balances, users and tokens can be set, and the ledger shows them', async () => {
    await control('POST', '/balances', { email: 'alice@example.com', currency: 'KES', amount: 12.5 });
    await control('POST', '/users', {
      email: 'dave@example.com',
      balances: { KES: 40 },
      providers: [{ name: 'mpesa', phone_number: '+254700000099', balances: { KES: 900 } }],
    });
    const token = (
      (await control('POST', '/tokens', { email: 'dave@example.com', appId: 'app_demo_shop' })).body as {
        token: string;
      }
    ).token;
    const paid = await run.api({
      path: '/merchants/transactions/c2b',
      key: DEMO_KEY,
      token,
      body: deposit({ amount: 40 }),
    });
    expect(paid.body).toMatchObject({ transaction_status: 'completed' });
    const ledger = (await control('GET', '/ledger')).body as {
      balances: { users: Record<string, Record<string, number>> };
      transactions: SandboxTransaction[];
    };
    expect(ledger.balances.users['alice@example.com']?.KES).toBe(12.5);
    expect(ledger.balances.users['dave@example.com']?.KES).toBe(0);
    expect(ledger.transactions.map((t) => t.user_email)).toEqual(['dave@example.com']);
    const bad = await control('POST', '/balances', { appId: 'app_nowhere', currency: 'KES', amount: 1 });
    expect((bad.body as { message: string }).message).toMatch(/^appId: names no sandbox merchant/);
  });

  test('a fault injected over HTTP hits the next API request, and DELETE clears faults', async () => {
    await control('POST', '/faults', { kind: 'error', code: 'psp_error', route: 'deposit' });
    const depositAsAlice = () =>
      run.api({ path: '/merchants/transactions/c2b', key: DEMO_KEY, token: ALICE, body: deposit() });
    const faulted = await depositAsAlice();
    expect(faulted.status).toBe(502);
    await control('POST', '/faults', { kind: 'error', code: 'psp_error', every: 1, times: 'Infinity' });
    expect((await control('DELETE', '/faults')).body).toEqual({ pending: 0 });
    const clean = await depositAsAlice();
    expect(clean.status).toBe(200);
  });

  test('merchant webhook URLs set at run time receive approvals', async () => {
    const other = await startReceiver();
    try {
      await control('POST', '/merchants/app_demo_shop', { authWebhookUrl: other.url });
      const { token } = (
        await control('POST', '/tokens', { email: 'bob@example.com', appId: 'app_demo_shop' })
      ).body as { token: string };
      await run.sandbox.webhooks.idle();
      expect(other.received.map((r) => r.body)).toEqual([
        { event: 'user_authorized', user_email: 'bob@example.com', token },
      ]);
    } finally {
      await other.close();
    }
  });

  test('reset restores the seed and forgets transactions, deliveries and faults', async () => {
    const before = run.sandbox.balances();
    const { id } = await startPendingDeposit(run);
    await control('POST', `/transactions/${id}/settle`, {});
    await control('POST', '/faults', { kind: 'drop-before' });
    await run.sandbox.webhooks.idle();
    await control('POST', '/reset');
    const ledger = (await control('GET', '/ledger')).body as { transactions: unknown[]; balances: unknown };
    expect(ledger).toMatchObject({ transactions: [], balances: before });
    expect((await control('GET', '/webhooks')).body).toEqual({ deliveries: [] });
    expect(run.sandbox.faults.pending).toBe(0);
  });
});
