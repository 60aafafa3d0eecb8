import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  defaultErrorMessage,
  type WalletEndpoint,
  type WalletErrorCode,
  walletErrorCodes,
} from '../../src/error-codes.js';
import { SANDBOX_ERROR_STATUS } from '../../src/testing/index.js';
import {
  ALICE,
  type ApiCall,
  BOB,
  CAROL,
  CLOSED_KEY,
  DEMO_KEY,
  deposit,
  OTHER_KEY,
  type Running,
  runSandbox,
} from './helpers.js';

const C2B = '/merchants/transactions/c2b';
const B2C = '/merchants/transactions/b2c';
const PROVIDERS = '/merchants/accounts/providers';
const STATUS = '/merchants/transactions/status/';

let run: Running;
let otherShopTransaction = '';

beforeAll(async () => {
  run = await runSandbox();
  const other = await run.api({
    path: C2B,
    key: OTHER_KEY,
    token: 'tok_sandbox_alice_other',
    body: deposit(),
  });
  otherShopTransaction = (other.body as { transaction_id: string }).transaction_id;
  await run.api({ path: C2B, key: DEMO_KEY, token: ALICE, body: deposit({ reference_id: 'used-once' }) });
});
afterAll(() => run.close());

/** One request per documented code, against the default seed; the table in docs/sandbox.md lists the same. */
const cases: [WalletErrorCode, WalletEndpoint, () => ApiCall][] = [
  ['missing_api_key', 'deposit', () => ({ path: C2B, token: ALICE, body: deposit() })],
  ['invalid_api_key', 'providers', () => ({ path: PROVIDERS, key: 'sk_unknown', token: ALICE })],
  ['authorization_token_not_found', 'providers', () => ({ path: PROVIDERS, key: DEMO_KEY })],
  [
    'application_not_authorized',
    'deposit',
    () => ({ path: C2B, key: DEMO_KEY, token: 'tok_sandbox_alice_other', body: deposit() }),
  ],
  [
    'invalid_currency',
    'deposit',
    () => ({ path: C2B, key: DEMO_KEY, token: ALICE, body: deposit({ currency: 'XYZ' }) }),
  ],
  [
    'invalid_webhook_url',
    'deposit',
    () => ({ path: C2B, key: DEMO_KEY, token: ALICE, body: deposit({ webhook_url: 'not a url' }) }),
  ],
  ['user_not_active', 'deposit', () => ({ path: C2B, key: DEMO_KEY, token: CAROL, body: deposit() })],
  [
    'user_balance_not_found',
    'deposit',
    () => ({ path: C2B, key: DEMO_KEY, token: ALICE, body: deposit({ currency: 'USD' }) }),
  ],
  [
    'merchant_not_active',
    'withdraw',
    () => ({ path: B2C, key: CLOSED_KEY, body: { email: 'alice@example.com', amount: 1, currency: 'KES' } }),
  ],
  [
    'merchant_balance_not_found',
    'deposit',
    () => ({ path: C2B, key: DEMO_KEY, token: ALICE, body: deposit({ currency: 'TZS' }) }),
  ],
  [
    'invalid_amount',
    'withdraw',
    () => ({ path: B2C, key: DEMO_KEY, body: { email: 'alice@example.com', amount: -5, currency: 'KES' } }),
  ],
  [
    'insufficient_balance',
    'deposit',
    () => ({ path: C2B, key: DEMO_KEY, token: ALICE, body: deposit({ amount: 999_999 }) }),
  ],
  [
    'provider_not_found',
    'deposit',
    () => ({ path: C2B, key: DEMO_KEY, token: ALICE, body: deposit({ payment_provider: 'tigo' }) }),
  ],
  [
    'psp_currency_balance_not_found',
    'deposit',
    () => ({
      path: C2B,
      key: DEMO_KEY,
      token: BOB,
      body: deposit({ amount: 5_000, payment_provider: 'airtel' }),
    }),
  ],
  [
    'invalid_provider_name',
    'deposit',
    () => ({ path: C2B, key: DEMO_KEY, token: ALICE, body: deposit({ payment_provider: 'bad name!' }) }),
  ],
  [
    'psp_error',
    'deposit',
    () => ({
      path: C2B,
      key: DEMO_KEY,
      token: BOB,
      body: deposit({ amount: 5_000, payment_provider: 'flakypay' }),
    }),
  ],
  [
    'reference_already_used',
    'deposit',
    () => ({ path: C2B, key: DEMO_KEY, token: ALICE, body: deposit({ reference_id: 'used-once' }) }),
  ],
  [
    'invalid_email',
    'withdraw',
    () => ({ path: B2C, key: DEMO_KEY, body: { email: 'not-an-email', amount: 1, currency: 'KES' } }),
  ],
  [
    'user_not_found',
    'withdraw',
    () => ({ path: B2C, key: DEMO_KEY, body: { email: 'nobody@example.com', amount: 1, currency: 'KES' } }),
  ],
  ['transaction_not_found', 'status', () => ({ path: `${STATUS}txn_999999`, key: DEMO_KEY })],
  [
    'transaction_access_forbidden',
    'status',
    () => ({ path: `${STATUS}${otherShopTransaction}`, key: DEMO_KEY }),
  ],
  ['internal_server_error', 'status', () => ({ path: `${STATUS}sandbox_internal_error`, key: DEMO_KEY })],
];

describe('every documented error code is reachable over HTTP', () => {
  test('the cases cover all 22 codes', () => {
    expect(new Set(cases.map(([code]) => code))).toEqual(new Set(walletErrorCodes));
  });

  test.each(cases)(
    '%s comes back from %s with its documented status and message',
    async (code, endpoint, call) => {
      const before = run.sandbox.totalMoney();
      const transactionsBefore = run.sandbox.transactions().length;
      const answer = await run.api(call());
      expect(answer.status).toBe(SANDBOX_ERROR_STATUS[code]);
      expect(answer.body).toEqual({ code, message: defaultErrorMessage(code, endpoint) });
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      expect(answer.headers.get('x-request-id')).toMatch(/^req_/);
      // A rejected request moves no money and records nothing.
      expect(run.sandbox.totalMoney()).toEqual(before);
      expect(run.sandbox.transactions()).toHaveLength(transactionsBefore);
    },
  );

  test('internal_server_error is also reachable on deposit and withdraw through the magic reference id', async () => {
    const onDeposit = await run.api({
      path: C2B,
      key: DEMO_KEY,
      token: ALICE,
      body: deposit({ reference_id: 'sandbox_internal_error' }),
    });
    const onWithdraw = await run.api({
      path: B2C,
      key: DEMO_KEY,
      body: {
        email: 'alice@example.com',
        amount: 1,
        currency: 'KES',
        reference_id: 'sandbox_internal_error',
      },
    });
    expect([onDeposit.status, onWithdraw.status]).toEqual([500, 500]);
    expect(onWithdraw.body).toEqual({ code: 'internal_server_error', message: 'internal server error' });
  });

  test('per-endpoint messages differ where the spec says so', async () => {
    const onDeposit = await run.api({ path: C2B, key: DEMO_KEY, body: deposit() });
    const onProviders = await run.api({ path: PROVIDERS, key: DEMO_KEY });
    expect(onDeposit.body).toEqual({
      code: 'authorization_token_not_found',
      message: 'please provide a bearer authorization token',
    });
    expect(onProviders.body).toEqual({
      code: 'authorization_token_not_found',
      message: 'please provide an authorization token',
    });
    const closedDeposit = await run.api({ path: C2B, key: CLOSED_KEY, token: ALICE, body: deposit() });
    expect(closedDeposit.body).toEqual({
      code: 'merchant_not_active',
      message: 'merchant account is not active',
    });
  });
});
