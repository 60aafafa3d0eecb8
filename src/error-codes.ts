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
  /** The request carried no `x-api-key`. */
  missing_api_key: {
    /** Its message from `deposit` (C2B). */
    deposit: 'please provide an api key',
    /** Its message from `withdraw` (B2C). */
    withdraw: 'please provide an api key',
    /** Its message from `status`. */
    status: 'please provide an api key',
    /** Its message from `providers`. */
    providers: 'please provide an api key',
  },
  /** The `x-api-key` names no merchant. */
  invalid_api_key: {
    /** Its message from `deposit` (C2B). */
    deposit: 'api key does not exist',
    /** Its message from `withdraw` (B2C). */
    withdraw: 'api key does not exist',
    /** Its message from `status`. */
    status: 'api key does not exist',
    /** Its message from `providers`. */
    providers: 'api key does not exist',
  },
  /** A call that acts for a user carried no `Authorization: Bearer` token. */
  authorization_token_not_found: {
    /** Its message from `deposit` (C2B). */
    deposit: 'please provide a bearer authorization token',
    /** Its message from `providers`. */
    providers: 'please provide an authorization token',
  },
  /** The user token is unknown, revoked, or was issued to another application. */
  application_not_authorized: {
    /** Its message from `deposit` (C2B). */
    deposit: 'application not authorized',
    /** Its message from `providers`. */
    providers: 'application is not authorized',
  },
  /** The currency is not one the service or this merchant handles. */
  invalid_currency: {
    /** Its message from `deposit` (C2B). */
    deposit: 'invalid currency',
    /** Its message from `withdraw` (B2C). */
    withdraw: 'invalid currency',
  },
  /** The deposit's `webhook_url` is not a valid URL. */
  invalid_webhook_url: {
    /** Its message from `deposit` (C2B). */
    deposit: 'invalid url format',
  },
  /** The user's wallet account is not active. */
  user_not_active: {
    /** Its message from `deposit` (C2B). */
    deposit: 'user account is not active',
    /** Its message from `withdraw` (B2C). */
    withdraw: 'user not active',
  },
  /** The user has no balance in the currency. */
  user_balance_not_found: {
    /** Its message from `deposit` (C2B). */
    deposit: 'user balance not found',
    /** Its message from `withdraw` (B2C). */
    withdraw: 'user balance not found',
  },
  /** The merchant account is not active. */
  merchant_not_active: {
    /** Its message from `deposit` (C2B). */
    deposit: 'merchant account is not active',
    /** Its message from `withdraw` (B2C). */
    withdraw: 'merchant not active',
  },
  /** The merchant has no balance in the currency. */
  merchant_balance_not_found: {
    /** Its message from `deposit` (C2B). */
    deposit: 'merchant balance not found',
    /** Its message from `withdraw` (B2C). */
    withdraw: 'merchant balance not found',
  },
  /** The amount is not a positive amount the service accepts. */
  invalid_amount: {
    /** Its message from `deposit` (C2B). */
    deposit: 'invalid amount',
    /** Its message from `withdraw` (B2C). */
    withdraw: 'invalid amount',
  },
  /** The paying side's balance does not cover the amount. */
  insufficient_balance: {
    /** Its message from `deposit` (C2B). */
    deposit: 'insufficient balance',
    /** Its message from `withdraw` (B2C). */
    withdraw: 'insufficient balance',
  },
  /** The named payment provider does not exist. */
  provider_not_found: {
    /** Its message from `deposit` (C2B). */
    deposit: 'payment provider not found',
  },
  /** The payment provider holds no balance in the currency. */
  psp_currency_balance_not_found: {
    /** Its message from `deposit` (C2B). */
    deposit: 'payment provider currency balance not found',
  },
  /** The payment provider name is malformed. */
  invalid_provider_name: {
    /** Its message from `deposit` (C2B). */
    deposit: 'invalid payment provider name',
  },
  /** The payment provider failed the deposit. */
  psp_error: {
    /** Its message from `deposit` (C2B). */
    deposit: 'payment provider error',
  },
  /** A transaction with this `reference_id` exists already; the payment was not made again. */
  reference_already_used: {
    /** Its message from `deposit` (C2B). */
    deposit: 'a transaction with the reference id exists',
    /** Its message from `withdraw` (B2C). */
    withdraw: 'a transaction with the reference id exists',
  },
  /** The withdrawal's `email` is not a valid address. */
  invalid_email: {
    /** Its message from `withdraw` (B2C). */
    withdraw: 'invalid email address',
  },
  /** No user has the withdrawal's `email`. */
  user_not_found: {
    /** Its message from `withdraw` (B2C). */
    withdraw: 'user not found',
  },
  /** No transaction has this id (or it is not visible yet). */
  transaction_not_found: {
    /** Its message from `status`. */
    status: 'transaction not found',
  },
  /** The transaction belongs to another merchant. */
  transaction_access_forbidden: {
    /** Its message from `status`. */
    status: 'you are not allowed to view the status of this transaction',
  },
  /** The service failed; the request may be retried. */
  internal_server_error: {
    /** Its message from `deposit` (C2B). */
    deposit: 'internal server error',
    /** Its message from `withdraw` (B2C). */
    withdraw: 'internal server error',
    /** Its message from `status`. */
    status: 'internal server error',
    /** Its message from `providers`. */
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
