import type { WalletClient, WalletEndpoint, WalletErrorCode } from '../../src/index.js';
import { USER_TOKEN } from './api-server.js';

/**
 * The spec's "Errors" table, transcribed by hand (endpoint 2 = deposit, 3 = withdraw,
 * 4 = status, 5 = providers), so a slip in the SDK's own table shows up as a test failure.
 */
export const SPEC_ERROR_TABLE: Record<string, Partial<Record<WalletEndpoint, string>>> = {
  missing_api_key: {
    deposit: 'please provide an api key',
    withdraw: 'please provide an api key',
    status: 'please provide an api key',
    providers: 'please provide an api key',
  },
  invalid_api_key: {
    deposit: 'api key does not exist',
    withdraw: 'api key does not exist',
    status: 'api key does not exist',
    providers: 'api key does not exist',
  },
  authorization_token_not_found: {
    deposit: 'please provide a bearer authorization token',
    providers: 'please provide an authorization token',
  },
  application_not_authorized: {
    deposit: 'application not authorized',
    providers: 'application is not authorized',
  },
  invalid_currency: { deposit: 'invalid currency', withdraw: 'invalid currency' },
  invalid_webhook_url: { deposit: 'invalid url format' },
  user_not_active: { deposit: 'user account is not active', withdraw: 'user not active' },
  user_balance_not_found: { deposit: 'user balance not found', withdraw: 'user balance not found' },
  merchant_not_active: { deposit: 'merchant account is not active', withdraw: 'merchant not active' },
  merchant_balance_not_found: {
    deposit: 'merchant balance not found',
    withdraw: 'merchant balance not found',
  },
  invalid_amount: { deposit: 'invalid amount', withdraw: 'invalid amount' },
  insufficient_balance: { deposit: 'insufficient balance', withdraw: 'insufficient balance' },
  provider_not_found: { deposit: 'payment provider not found' },
  psp_currency_balance_not_found: { deposit: 'payment provider currency balance not found' },
  invalid_provider_name: { deposit: 'invalid payment provider name' },
  psp_error: { deposit: 'payment provider error' },
  reference_already_used: {
    deposit: 'a transaction with the reference id exists',
    withdraw: 'a transaction with the reference id exists',
  },
  invalid_email: { withdraw: 'invalid email address' },
  user_not_found: { withdraw: 'user not found' },
  transaction_not_found: { status: 'transaction not found' },
  transaction_access_forbidden: { status: 'you are not allowed to view the status of this transaction' },
  internal_server_error: {
    deposit: 'internal server error',
    withdraw: 'internal server error',
    status: 'internal server error',
    providers: 'internal server error',
  },
};

/**
 * A plausible HTTP status per code (the spec shows none). All but `internal_server_error`
 * are statuses the client never retries, so each case costs one request.
 */
export const HTTP_STATUS_FOR_CODE: Record<WalletErrorCode, number> = {
  missing_api_key: 401,
  invalid_api_key: 401,
  authorization_token_not_found: 401,
  application_not_authorized: 403,
  invalid_currency: 400,
  invalid_webhook_url: 400,
  user_not_active: 403,
  user_balance_not_found: 404,
  merchant_not_active: 403,
  merchant_balance_not_found: 404,
  invalid_amount: 422,
  insufficient_balance: 422,
  provider_not_found: 404,
  psp_currency_balance_not_found: 404,
  invalid_provider_name: 400,
  psp_error: 400,
  reference_already_used: 409,
  invalid_email: 400,
  user_not_found: 404,
  transaction_not_found: 404,
  transaction_access_forbidden: 403,
  internal_server_error: 500,
};

type ShapeBuilder = (code: string, message?: string) => Record<string, unknown>;

/** The four error body shapes the SDK reads (DESIGN.md), with and without a message. */
export const ERROR_BODY_SHAPES: ReadonlyArray<readonly [name: string, build: ShapeBuilder]> = [
  ['{code, message}', (code, message) => (message === undefined ? { code } : { code, message })],
  [
    '{error: {code, message}}',
    (code, message) => ({ error: message === undefined ? { code } : { code, message } }),
  ],
  [
    '{error: "<code>", message}',
    (code, message) => (message === undefined ? { error: code } : { error: code, message }),
  ],
  [
    '{errors: [{code, message}]}',
    (code, message) => ({ errors: [message === undefined ? { code } : { code, message }] }),
  ],
];

export const validDeposit = { reference_id: 'order-1042', amount: 250, currency: 'KES' };
export const validWithdraw = {
  email: 'ada@example.com',
  amount: 120.5,
  currency: 'KES',
  reference_id: 'payout-77',
};

/** Calls the client method of `endpoint` with valid arguments. */
export function callEndpoint(client: WalletClient, endpoint: WalletEndpoint): Promise<unknown> {
  switch (endpoint) {
    case 'deposit':
      return client.deposit(validDeposit, { userToken: USER_TOKEN });
    case 'withdraw':
      return client.withdraw(validWithdraw);
    case 'status':
      return client.getTransaction('txn_c2b_001');
    case 'providers':
      return client.listProviders({ userToken: USER_TOKEN });
  }
}

/** Whether `endpoint` moves money (a POST whose failure after sending ends unknown). */
export function movesMoney(endpoint: WalletEndpoint): boolean {
  return endpoint === 'deposit' || endpoint === 'withdraw';
}

/** Resolves with what `promise` rejected with; fails if it resolved. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}
