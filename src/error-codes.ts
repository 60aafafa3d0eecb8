/**
 * The API endpoints that can answer with an error, named after what they do.
 * `deposit` is C2B, `withdraw` is B2C, `status` is the transaction lookup and
 * `providers` the payment-provider listing.
 */
export type WalletEndpoint = 'deposit' | 'withdraw' | 'status' | 'providers';

/**
 * Every documented error code, with the message each endpoint uses for it.
 * The endpoints that can return a code are the keys of its entry, so this one
 * table is the source of {@link WalletErrorCode}, the per-endpoint unions and
 * the default messages.
 */
export const WALLET_ERROR_CODES = {
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
} as const satisfies Record<string, Partial<Record<WalletEndpoint, string>>>;

/** The shape of {@link WALLET_ERROR_CODES}: code → endpoint → message. */
export type WalletErrorCodeTable = typeof WALLET_ERROR_CODES;

/** One of the 22 error codes the API documents. */
export type WalletErrorCode = keyof WalletErrorCodeTable;

/** The code of a {@link WalletApiError}: a documented code, or `unknown_error` for one the SDK does not know. */
export type WalletApiErrorCode = WalletErrorCode | 'unknown_error';

/** The documented codes one endpoint can return. */
export type EndpointErrorCode<E extends WalletEndpoint> = {
  [C in WalletErrorCode]: E extends keyof WalletErrorCodeTable[C] ? C : never;
}[WalletErrorCode];

/** Codes `deposit` (C2B) can return. */
export type DepositErrorCode = EndpointErrorCode<'deposit'>;
/** Codes `withdraw` (B2C) can return. */
export type WithdrawErrorCode = EndpointErrorCode<'withdraw'>;
/** Codes `getTransaction` (status) can return. */
export type StatusErrorCode = EndpointErrorCode<'status'>;
/** Codes `listProviders` can return. */
export type ProvidersErrorCode = EndpointErrorCode<'providers'>;

/** All 22 documented codes, in the order of the spec's table. */
export const walletErrorCodes = Object.keys(WALLET_ERROR_CODES) as readonly WalletErrorCode[];

/** Whether `value` is one of the 22 documented codes. */
export function isWalletErrorCode(value: unknown): value is WalletErrorCode {
  return typeof value === 'string' && Object.hasOwn(WALLET_ERROR_CODES, value);
}

/** The endpoints that can return `code`. */
export function endpointsForCode(code: WalletErrorCode): WalletEndpoint[] {
  return Object.keys(WALLET_ERROR_CODES[code]) as WalletEndpoint[];
}

/**
 * The spec's message for `code` on `endpoint`; for an endpoint the spec does not
 * list for that code, the message of the first endpoint that has one.
 */
export function defaultErrorMessage(code: WalletErrorCode, endpoint: WalletEndpoint): string {
  const messages: Partial<Record<WalletEndpoint, string>> = WALLET_ERROR_CODES[code];
  return messages[endpoint] ?? Object.values(messages)[0] ?? code;
}
