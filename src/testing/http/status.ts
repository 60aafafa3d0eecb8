import type { WalletErrorCode } from '../../error-codes.js';

/**
 * The HTTP status the sandbox answers with for each documented error code.
 * The spec leaves statuses open; these follow common REST usage: 400 for
 * invalid input, 401 for missing or unknown credentials, 403 for credentials
 * that are valid but not allowed, 404 for missing records, 409 for a reused
 * reference, 422 for a well-formed request that cannot be funded, 5xx for
 * failures on the service's side.
 */
export const SANDBOX_ERROR_STATUS: Readonly<Record<WalletErrorCode, number>> = {
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
  invalid_amount: 400,
  insufficient_balance: 422,
  provider_not_found: 404,
  psp_currency_balance_not_found: 404,
  invalid_provider_name: 400,
  psp_error: 502,
  reference_already_used: 409,
  invalid_email: 400,
  user_not_found: 404,
  transaction_not_found: 404,
  transaction_access_forbidden: 403,
  internal_server_error: 500,
};

const PROTOCOL_ERRORS = {
  invalid_request: { status: 400, message: 'a required field is missing or has the wrong type' },
  invalid_json: { status: 400, message: 'request body is not a valid JSON object' },
  unsupported_media_type: { status: 415, message: 'request body must be sent as application/json' },
  payload_too_large: { status: 413, message: 'request body is too large' },
  not_found: { status: 404, message: 'no such route' },
  method_not_allowed: { status: 405, message: 'method not allowed on this route' },
} as const satisfies Record<SandboxProtocolErrorCode, SandboxProtocolError>;

/** A code of {@link SANDBOX_PROTOCOL_ERRORS}. */
export type SandboxProtocolErrorCode =
  | 'invalid_request'
  | 'invalid_json'
  | 'unsupported_media_type'
  | 'payload_too_large'
  | 'not_found'
  | 'method_not_allowed';

/** How the sandbox answers one protocol error. */
export interface SandboxProtocolError {
  /** The HTTP status. */
  readonly status: number;
  /** The message of the error body. */
  readonly message: string;
}

/**
 * Errors that are not among the API's 22 codes: they answer requests the spec
 * never describes (bad framing, unknown routes), so their codes are the
 * sandbox's own and a client sees them as `unknown_error`.
 */
export const SANDBOX_PROTOCOL_ERRORS: Readonly<Record<SandboxProtocolErrorCode, SandboxProtocolError>> =
  PROTOCOL_ERRORS;

/** Any code the sandbox can put in an error body. */
export type SandboxErrorCode = WalletErrorCode | SandboxProtocolErrorCode;
