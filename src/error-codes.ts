/**
 * The API endpoints that can answer with an error, named after what they do.
 * `deposit` is C2B, `withdraw` is B2C, `status` is the transaction lookup and
 * `providers` the payment-provider listing.
 */
export type WalletEndpoint = 'deposit' | 'withdraw' | 'status' | 'providers';

/**
 * What a code means to the parts of the SDK that decide on it. Each rule's set of codes is derived
 * from these (see {@link codesOfKind}), so a code's meaning is written once, beside its messages.
 */
export interface WalletErrorCodeKinds {
  /**
   * Whether a refusal with the code speaks for the payment itself, not only for this send, and so
   * settles a re-send of a payment whose outcome is unknown (`journal/outcome.ts`). `false` for the
   * refusals the service makes before it looks at the reference id (credentials) and for an internal
   * error, which is no answer: those settle a first send only.
   */
  readonly aboutPayment: boolean;
  /** Whether the code means the user's authorization is gone and the login flow must be repeated. */
  readonly reauthorize: boolean;
  /**
   * Whether a status read that failed with the code is tried again while polling (`polling/retry.ts`):
   * `'retry'` always, `'stop'` never (no amount of waiting changes it), `'while-new'` only while the
   * wait is young enough for the transaction not to be visible yet, `'by-status'` when the HTTP status
   * says "try again later" (5xx, 408, 425, 429).
   */
  readonly poll: 'retry' | 'stop' | 'while-new' | 'by-status';
  /**
   * How the send loop judges an attempt answered with the code (`transport/judge-attempt.ts`):
   * `'refused'`, the service's own answer, was not applied and is not retried; `'by-status'` is
   * judged by its HTTP status and method like an answer without a code, so a POST answered 5xx may
   * have been applied.
   */
  readonly attempt: 'refused' | 'by-status';
}

/**
 * Every documented error code: the message each endpoint uses for it and its kinds. The endpoints
 * that can return a code are the keys of its `messages`, so this one table is the source of
 * {@link WalletErrorCode}, the per-endpoint unions, the default messages and every set of codes a
 * rule keeps.
 */
const ERROR_CODE_TABLE = {
  /** The request carried no `x-api-key`. */
  missing_api_key: {
    messages: {
      /** Its message from `deposit` (C2B). */
      deposit: 'please provide an api key',
      /** Its message from `withdraw` (B2C). */
      withdraw: 'please provide an api key',
      /** Its message from `status`. */
      status: 'please provide an api key',
      /** Its message from `providers`. */
      providers: 'please provide an api key',
    },
    kinds: { aboutPayment: false, reauthorize: false, poll: 'stop', attempt: 'refused' },
  },
  /** The `x-api-key` names no merchant. */
  invalid_api_key: {
    messages: {
      /** Its message from `deposit` (C2B). */
      deposit: 'api key does not exist',
      /** Its message from `withdraw` (B2C). */
      withdraw: 'api key does not exist',
      /** Its message from `status`. */
      status: 'api key does not exist',
      /** Its message from `providers`. */
      providers: 'api key does not exist',
    },
    kinds: { aboutPayment: false, reauthorize: false, poll: 'stop', attempt: 'refused' },
  },
  /** A call that acts for a user carried no `Authorization: Bearer` token. */
  authorization_token_not_found: {
    messages: {
      /** Its message from `deposit` (C2B). */
      deposit: 'please provide a bearer authorization token',
      /** Its message from `providers`. */
      providers: 'please provide an authorization token',
    },
    kinds: { aboutPayment: false, reauthorize: true, poll: 'by-status', attempt: 'refused' },
  },
  /** The user token is unknown, revoked, or was issued to another application. */
  application_not_authorized: {
    messages: {
      /** Its message from `deposit` (C2B). */
      deposit: 'application not authorized',
      /** Its message from `providers`. */
      providers: 'application is not authorized',
    },
    kinds: { aboutPayment: false, reauthorize: true, poll: 'by-status', attempt: 'refused' },
  },
  /** The currency is not one the service or this merchant handles. */
  invalid_currency: {
    messages: {
      /** Its message from `deposit` (C2B). */
      deposit: 'invalid currency',
      /** Its message from `withdraw` (B2C). */
      withdraw: 'invalid currency',
    },
    kinds: { aboutPayment: true, reauthorize: false, poll: 'by-status', attempt: 'refused' },
  },
  /** The deposit's `webhook_url` is not a valid URL. */
  invalid_webhook_url: {
    messages: {
      /** Its message from `deposit` (C2B). */
      deposit: 'invalid url format',
    },
    kinds: { aboutPayment: true, reauthorize: false, poll: 'by-status', attempt: 'refused' },
  },
  /** The user's wallet account is not active. */
  user_not_active: {
    messages: {
      /** Its message from `deposit` (C2B). */
      deposit: 'user account is not active',
      /** Its message from `withdraw` (B2C). */
      withdraw: 'user not active',
    },
    kinds: { aboutPayment: true, reauthorize: false, poll: 'by-status', attempt: 'refused' },
  },
  /** The user has no balance in the currency. */
  user_balance_not_found: {
    messages: {
      /** Its message from `deposit` (C2B). */
      deposit: 'user balance not found',
      /** Its message from `withdraw` (B2C). */
      withdraw: 'user balance not found',
    },
    kinds: { aboutPayment: true, reauthorize: false, poll: 'by-status', attempt: 'refused' },
  },
  /** The merchant account is not active. */
  merchant_not_active: {
    messages: {
      /** Its message from `deposit` (C2B). */
      deposit: 'merchant account is not active',
      /** Its message from `withdraw` (B2C). */
      withdraw: 'merchant not active',
    },
    kinds: { aboutPayment: true, reauthorize: false, poll: 'by-status', attempt: 'refused' },
  },
  /** The merchant has no balance in the currency. */
  merchant_balance_not_found: {
    messages: {
      /** Its message from `deposit` (C2B). */
      deposit: 'merchant balance not found',
      /** Its message from `withdraw` (B2C). */
      withdraw: 'merchant balance not found',
    },
    kinds: { aboutPayment: true, reauthorize: false, poll: 'by-status', attempt: 'refused' },
  },
  /** The amount is not a positive amount the service accepts. */
  invalid_amount: {
    messages: {
      /** Its message from `deposit` (C2B). */
      deposit: 'invalid amount',
      /** Its message from `withdraw` (B2C). */
      withdraw: 'invalid amount',
    },
    kinds: { aboutPayment: true, reauthorize: false, poll: 'by-status', attempt: 'refused' },
  },
  /** The paying side's balance does not cover the amount. */
  insufficient_balance: {
    messages: {
      /** Its message from `deposit` (C2B). */
      deposit: 'insufficient balance',
      /** Its message from `withdraw` (B2C). */
      withdraw: 'insufficient balance',
    },
    kinds: { aboutPayment: true, reauthorize: false, poll: 'by-status', attempt: 'refused' },
  },
  /** The named payment provider does not exist. */
  provider_not_found: {
    messages: {
      /** Its message from `deposit` (C2B). */
      deposit: 'payment provider not found',
    },
    kinds: { aboutPayment: true, reauthorize: false, poll: 'by-status', attempt: 'refused' },
  },
  /** The payment provider holds no balance in the currency. */
  psp_currency_balance_not_found: {
    messages: {
      /** Its message from `deposit` (C2B). */
      deposit: 'payment provider currency balance not found',
    },
    kinds: { aboutPayment: true, reauthorize: false, poll: 'by-status', attempt: 'refused' },
  },
  /** The payment provider name is malformed. */
  invalid_provider_name: {
    messages: {
      /** Its message from `deposit` (C2B). */
      deposit: 'invalid payment provider name',
    },
    kinds: { aboutPayment: true, reauthorize: false, poll: 'by-status', attempt: 'refused' },
  },
  /** The payment provider failed the deposit. */
  psp_error: {
    messages: {
      /** Its message from `deposit` (C2B). */
      deposit: 'payment provider error',
    },
    kinds: { aboutPayment: true, reauthorize: false, poll: 'by-status', attempt: 'refused' },
  },
  /** A transaction with this `reference_id` exists already; the payment was not made again. */
  reference_already_used: {
    messages: {
      /** Its message from `deposit` (C2B). */
      deposit: 'a transaction with the reference id exists',
      /** Its message from `withdraw` (B2C). */
      withdraw: 'a transaction with the reference id exists',
    },
    kinds: { aboutPayment: true, reauthorize: false, poll: 'by-status', attempt: 'refused' },
  },
  /** The withdrawal's `email` is not a valid address. */
  invalid_email: {
    messages: {
      /** Its message from `withdraw` (B2C). */
      withdraw: 'invalid email address',
    },
    kinds: { aboutPayment: true, reauthorize: false, poll: 'by-status', attempt: 'refused' },
  },
  /** No user has the withdrawal's `email`. */
  user_not_found: {
    messages: {
      /** Its message from `withdraw` (B2C). */
      withdraw: 'user not found',
    },
    kinds: { aboutPayment: true, reauthorize: false, poll: 'by-status', attempt: 'refused' },
  },
  /** No transaction has this id (or it is not visible yet). */
  transaction_not_found: {
    messages: {
      /** Its message from `status`. */
      status: 'transaction not found',
    },
    kinds: { aboutPayment: true, reauthorize: false, poll: 'while-new', attempt: 'refused' },
  },
  /** The transaction belongs to another merchant. */
  transaction_access_forbidden: {
    messages: {
      /** Its message from `status`. */
      status: 'you are not allowed to view the status of this transaction',
    },
    kinds: { aboutPayment: true, reauthorize: false, poll: 'stop', attempt: 'refused' },
  },
  /** The service failed; the request may be retried. */
  internal_server_error: {
    messages: {
      /** Its message from `deposit` (C2B). */
      deposit: 'internal server error',
      /** Its message from `withdraw` (B2C). */
      withdraw: 'internal server error',
      /** Its message from `status`. */
      status: 'internal server error',
      /** Its message from `providers`. */
      providers: 'internal server error',
    },
    kinds: { aboutPayment: false, reauthorize: false, poll: 'retry', attempt: 'by-status' },
  },
} as const satisfies Record<
  string,
  { readonly messages: Partial<Record<WalletEndpoint, string>>; readonly kinds: WalletErrorCodeKinds }
>;

/** `table` with each code's messages only: the public view of the code table. */
function messagesOf<T extends Record<string, { readonly messages: object }>>(
  table: T,
): { readonly [C in keyof T]: T[C]['messages'] } {
  return Object.fromEntries(Object.entries(table).map(([code, { messages }]) => [code, messages])) as {
    readonly [C in keyof T]: T[C]['messages'];
  };
}

/**
 * Every documented error code, with the message each endpoint uses for it. The endpoints that can
 * return a code are the keys of its entry.
 */
export const WALLET_ERROR_CODES = messagesOf(ERROR_CODE_TABLE);

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

/** The kinds of `unknown_error`, the code of an answer without one the SDK knows: no answer about anything. */
const UNKNOWN_ERROR_KINDS: WalletErrorCodeKinds = {
  aboutPayment: false,
  reauthorize: false,
  poll: 'by-status',
  attempt: 'by-status',
};

/** The kinds of `code`, from the code table. */
export function errorCodeKinds(code: WalletApiErrorCode): WalletErrorCodeKinds {
  return code === 'unknown_error' ? UNKNOWN_ERROR_KINDS : ERROR_CODE_TABLE[code].kinds;
}

/**
 * The codes, `unknown_error` included, whose kinds pass `test`: how a rule derives its set of codes
 * from the table instead of keeping a list of its own.
 */
export function codesOfKind(test: (kinds: WalletErrorCodeKinds) => boolean): ReadonlySet<WalletApiErrorCode> {
  const codes: readonly WalletApiErrorCode[] = [...walletErrorCodes, 'unknown_error'];
  return new Set(codes.filter((code) => test(errorCodeKinds(code))));
}
