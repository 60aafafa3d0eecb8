import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { parseDateCompleted } from '../../src/schemas/date-completed.js';
import { PROVIDER_SHORT_REASON } from '../../src/testing/index.js';
import {
  ALICE,
  BOB,
  codeOf,
  DEMO_KEY,
  deposit,
  OTHER_KEY,
  type Running,
  runSandbox,
  startPendingDeposit,
} from './helpers.js';

const C2B = '/merchants/transactions/c2b';
const B2C = '/merchants/transactions/b2c';
const status = (id: string) => `/merchants/transactions/status/${encodeURIComponent(id)}`;

let run: Running;
beforeEach(async () => {
  run = await runSandbox(undefined, { now: () => new Date('2026-11-21T14:30:05.250Z') });
});
afterEach(() => run.close());

describe('deposit (C2B)', () => {
  test('a deposit the wallet covers completes at once and moves the money to the merchant', async () => {
    const answer = await run.api({
      path: C2B,
      key: DEMO_KEY,
      token: ALICE,
      body: deposit({ amount: 150.5, reference_id: 'order-1' }),
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      transaction_id: expect.any(String),
      reference_id: 'order-1',
      transaction_status: 'completed',
      amount: 150.5,
      currency: 'KES',
    });
    const balances = run.sandbox.balances();
    expect(balances.users['alice@example.com']?.KES).toBe(4_849.5);
    expect(balances.merchants.app_demo_shop?.KES).toBe(100_150.5);
  });

  test('a short wallet with a named provider starts a pending deposit that moves nothing yet', async () => {
    const before = run.sandbox.balances();
    const { answer } = await startPendingDeposit(run);
    expect(answer.body).toMatchObject({ transaction_status: 'pending', amount: 500 });
    expect(run.sandbox.balances()).toEqual(before);
  });

  test('settling a pending deposit as completed moves the money from the provider account to the merchant', async () => {
    const { id } = await startPendingDeposit(run);
    const settled = run.sandbox.settle(id, { status: 'completed' });
    expect(settled.transaction_status).toBe('completed');
    const balances = run.sandbox.balances();
    expect(balances.providers['bob@example.com']?.mpesa?.KES).toBe(19_500);
    expect(balances.merchants.app_demo_shop?.KES).toBe(100_500);
    expect(balances.users['bob@example.com']?.KES).toBe(100);
    const lookup = await run.api({ path: status(id), key: DEMO_KEY });
    expect(lookup.body).toMatchObject({
      transaction_status: 'completed',
      amount: '500.00',
      failure_reason: null,
    });
  });

  test('settling as failed records the reason and moves nothing', async () => {
    const { id } = await startPendingDeposit(run);
    const before = run.sandbox.balances();
    run.sandbox.settle(id, { status: 'failed', failure_reason: 'user cancelled on phone' });
    expect(run.sandbox.balances()).toEqual(before);
    const lookup = await run.api({ path: status(id), key: DEMO_KEY });
    expect(lookup.body).toMatchObject({
      transaction_status: 'failed',
      failure_reason: 'user cancelled on phone',
    });
  });

  test('a completed settlement the provider account cannot cover fails instead of creating money', async () => {
    const { id } = await startPendingDeposit(run, { amount: 25_000 });
    const settled = run.sandbox.settle(id, { status: 'completed' });
    expect(settled).toMatchObject({ transaction_status: 'failed', failure_reason: PROVIDER_SHORT_REASON });
  });

  test('a transaction can be settled only once', async () => {
    const { id } = await startPendingDeposit(run);
    run.sandbox.settle(id, { status: 'completed' });
    expect(() => run.sandbox.settle(id, { status: 'completed' })).toThrow(
      /transactionId: is not a pending deposit/,
    );
  });

  test('a named provider must be one of the user’s even when the wallet covers the amount', async () => {
    const answer = await run.api({
      path: C2B,
      key: DEMO_KEY,
      token: ALICE,
      body: deposit({ payment_provider: 'tigo' }),
    });
    expect(codeOf(answer)).toBe('provider_not_found');
  });

  test('reference ids are unique per merchant, across deposits and withdrawals, not across merchants', async () => {
    const first = await run.api({
      path: C2B,
      key: DEMO_KEY,
      token: ALICE,
      body: deposit({ reference_id: 'shared' }),
    });
    expect(first.status).toBe(200);
    const again = await run.api({
      path: B2C,
      key: DEMO_KEY,
      body: { email: 'bob@example.com', amount: 1, currency: 'KES', reference_id: 'shared' },
    });
    expect(codeOf(again)).toBe('reference_already_used');
    const otherShop = await run.api({
      path: C2B,
      key: OTHER_KEY,
      token: 'tok_sandbox_alice_other',
      body: deposit({ reference_id: 'shared' }),
    });
    expect(otherShop.status).toBe(200);
  });

  test('a rejected deposit does not use up its reference id', async () => {
    const rejected = await run.api({
      path: C2B,
      key: DEMO_KEY,
      token: ALICE,
      body: deposit({ reference_id: 'retry-me', amount: 999_999 }),
    });
    expect(codeOf(rejected)).toBe('insufficient_balance');
    const accepted = await run.api({
      path: C2B,
      key: DEMO_KEY,
      token: ALICE,
      body: deposit({ reference_id: 'retry-me' }),
    });
    expect(accepted.status).toBe(200);
  });

  test('amounts with more than two decimals, zero, or above the maximum are invalid_amount', async () => {
    for (const amount of [0.001, 0, 1e12, '10', null]) {
      const answer = await run.api({ path: C2B, key: DEMO_KEY, token: ALICE, body: deposit({ amount }) });
      expect(codeOf(answer), String(amount)).toBe('invalid_amount');
    }
  });

  test('a missing reference_id is the sandbox’s own invalid_request', async () => {
    const answer = await run.api({
      path: C2B,
      key: DEMO_KEY,
      token: ALICE,
      body: { amount: 1, currency: 'KES' },
    });
    expect(answer.status).toBe(400);
    expect(codeOf(answer)).toBe('invalid_request');
  });
});

describe('withdrawal (B2C)', () => {
  test('a withdrawal moves merchant money to the wallet and reports date_completed in UTC', async () => {
    const answer = await run.api({
      path: B2C,
      key: DEMO_KEY,
      body: { email: 'Alice@Example.com', amount: 200, currency: 'KES', reference_id: 'payout-1' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      transaction_id: expect.any(String),
      reference_id: 'payout-1',
      transaction_status: 'completed',
      amount: 200,
      currency: 'KES',
      date_completed: 20261121143005,
    });
    expect(parseDateCompleted(20261121143005).toISOString()).toBe('2026-11-21T14:30:05.000Z');
    expect(run.sandbox.balances().users['alice@example.com']?.KES).toBe(5_200);
    expect(run.sandbox.balances().merchants.app_demo_shop?.KES).toBe(99_800);
  });

  test('a withdrawal naming a provider goes on to the user’s account there', async () => {
    await run.api({
      path: B2C,
      key: DEMO_KEY,
      body: { email: 'bob@example.com', amount: 300, currency: 'KES', payment_provider: 'mpesa' },
    });
    const balances = run.sandbox.balances();
    expect(balances.users['bob@example.com']?.KES).toBe(100);
    expect(balances.providers['bob@example.com']?.mpesa?.KES).toBe(20_300);
  });

  test('a withdrawal without reference_id omits it from the answer and from the status', async () => {
    const answer = await run.api({
      path: B2C,
      key: DEMO_KEY,
      body: { email: 'bob@example.com', amount: 1, currency: 'KES' },
    });
    expect(answer.body).not.toHaveProperty('reference_id');
    const id = (answer.body as { transaction_id: string }).transaction_id;
    expect((await run.api({ path: status(id), key: DEMO_KEY })).body).not.toHaveProperty('reference_id');
  });

  test('a withdrawal larger than the merchant balance is insufficient_balance', async () => {
    const answer = await run.api({
      path: B2C,
      key: DEMO_KEY,
      body: { email: 'bob@example.com', amount: 100_001, currency: 'KES' },
    });
    expect(answer.status).toBe(422);
    expect(codeOf(answer)).toBe('insufficient_balance');
  });
});

describe('status and providers', () => {
  test('status is visible only to the merchant that created the transaction', async () => {
    const created = await run.api({ path: C2B, key: DEMO_KEY, token: ALICE, body: deposit() });
    const id = (created.body as { transaction_id: string }).transaction_id;
    expect((await run.api({ path: status(id), key: DEMO_KEY })).status).toBe(200);
    expect(codeOf(await run.api({ path: status(id), key: OTHER_KEY }))).toBe('transaction_access_forbidden');
  });

  test('a transaction id with path characters is looked up literally', async () => {
    const answer = await run.api({ path: status('../accounts/providers'), key: DEMO_KEY });
    expect(codeOf(answer)).toBe('transaction_not_found');
  });

  test('providers lists the user’s providers and defaults', async () => {
    const answer = await run.api({ path: '/merchants/accounts/providers', key: DEMO_KEY, token: BOB });
    expect(answer.body).toEqual({
      default_deposit_provider: 'mpesa',
      default_withdraw_provider: 'airtel',
      payment_providers: {
        mobile_payment_providers: [
          { provider_name: 'mpesa', phone_number: '+254700000002' },
          { provider_name: 'airtel', phone_number: '+256700000002' },
          { provider_name: 'flakypay', phone_number: '+254700000003' },
          { provider_name: 'declinepay', phone_number: '+254700000004' },
        ],
      },
    });
  });
});

describe('tokens', () => {
  test('a revoked token is application_not_authorized', async () => {
    expect(run.sandbox.revoke(ALICE)).toBe(true);
    expect(run.sandbox.revoke(ALICE)).toBe(false);
    const answer = await run.api({ path: '/merchants/accounts/providers', key: DEMO_KEY, token: ALICE });
    expect(codeOf(answer)).toBe('application_not_authorized');
  });

  test('authorizing again issues a new token and retires the old one for that app', async () => {
    const token = run.sandbox.authorize({ email: 'alice@example.com', appId: 'app_demo_shop' });
    expect(token).toMatch(/^tok_/);
    const fresh = await run.api({ path: '/merchants/accounts/providers', key: DEMO_KEY, token });
    expect(fresh.status).toBe(200);
    expect(
      codeOf(await run.api({ path: '/merchants/accounts/providers', key: DEMO_KEY, token: ALICE })),
    ).toBe('application_not_authorized');
    // The token for the other app is untouched.
    const other = await run.api({
      path: '/merchants/accounts/providers',
      key: OTHER_KEY,
      token: 'tok_sandbox_alice_other',
    });
    expect(other.status).toBe(200);
  });
});

describe('automatic settlement', () => {
  test('pending deposits settle by themselves after autoSettleMs, declining providers as failed', async () => {
    const auto = await runSandbox(undefined, { autoSettleMs: 5 });
    try {
      const ok = await startPendingDeposit(auto);
      const declined = await startPendingDeposit(auto, { payment_provider: 'declinepay' });
      const ids = [ok.id, declined.id];
      await expect
        .poll(() => ids.map((id) => auto.sandbox.transaction(id)?.transaction_status), { interval: 5 })
        .toEqual(['completed', 'failed']);
    } finally {
      await auto.close();
    }
  });
});
