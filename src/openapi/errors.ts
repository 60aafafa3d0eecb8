import {
  defaultErrorMessage,
  WALLET_ERROR_CODES,
  type WalletEndpoint,
  type WalletErrorCode,
  walletErrorCodes,
} from '../error-codes.js';
import { SANDBOX_ERROR_STATUS } from '../testing/http/status.js';
import type { JsonSchema } from './types.js';

/** The component name of each endpoint's code union, as the SDK exports it (`DepositErrorCode`, ...). */
export const ERROR_CODE_SCHEMAS = {
  deposit: 'DepositErrorCode',
  withdraw: 'WithdrawErrorCode',
  status: 'StatusErrorCode',
  providers: 'ProvidersErrorCode',
} as const satisfies Record<WalletEndpoint, string>;

/** The component name of each endpoint's error body. */
export const ERROR_BODY_SCHEMAS = {
  deposit: 'DepositErrorBody',
  withdraw: 'WithdrawErrorBody',
  status: 'StatusErrorBody',
  providers: 'ProvidersErrorBody',
} as const satisfies Record<WalletEndpoint, string>;

/** The documented codes `endpoint` can return, in the order of the spec's table. */
export function codesOf(endpoint: WalletEndpoint): WalletErrorCode[] {
  return walletErrorCodes.filter((code) => Object.hasOwn(WALLET_ERROR_CODES[code], endpoint));
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/**
 * The error body of `endpoint`. The spec shows neither its JSON shape nor the status of each code,
 * so the document allows the four shapes the SDK reads (the sandbox answers in any of them), and
 * the code is one of the endpoint's documented codes.
 */
function errorBodySchema(endpoint: WalletEndpoint): JsonSchema {
  const code = ref(ERROR_CODE_SCHEMAS[endpoint]);
  const message = { type: 'string', description: "The spec's message for the code on this endpoint." };
  const detail = { type: 'object', required: ['code', 'message'], properties: { code, message } };
  return {
    description:
      `An error of ${endpoint}. The spec shows the code and message of each error but not the body's ` +
      'JSON shape; the SDK reads the code and message from any of these four shapes.',
    anyOf: [
      { ...detail, title: 'code' },
      { title: 'error-object', type: 'object', required: ['error'], properties: { error: detail } },
      {
        title: 'error-string',
        type: 'object',
        required: ['error', 'message'],
        properties: { error: code, message },
      },
      {
        title: 'errors-array',
        type: 'object',
        required: ['errors'],
        properties: { errors: { type: 'array', minItems: 1, items: detail } },
      },
    ],
  };
}

/** The code-union and error-body components of every endpoint. */
export function errorSchemas(): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = {};
  for (const endpoint of Object.keys(ERROR_CODE_SCHEMAS) as WalletEndpoint[]) {
    schemas[ERROR_CODE_SCHEMAS[endpoint]] = {
      type: 'string',
      enum: codesOf(endpoint),
      description: `The documented error codes of ${endpoint}.`,
    };
    schemas[ERROR_BODY_SCHEMAS[endpoint]] = errorBodySchema(endpoint);
  }
  return schemas;
}

/**
 * The `4XX` and `5XX` responses of `endpoint`: every documented code as an example, under the range
 * of the status the sandbox answers it with (the spec leaves statuses open, so no exact status is
 * promised).
 */
export function errorResponses(endpoint: WalletEndpoint): Record<string, JsonSchema> {
  const responses: Record<string, JsonSchema> = {};
  for (const range of ['4XX', '5XX'] as const) {
    const codes = codesOf(endpoint).filter((code) => `${String(SANDBOX_ERROR_STATUS[code])[0]}XX` === range);
    const examples = Object.fromEntries(
      codes.map((code) => [
        code,
        {
          summary: `${code} (the sandbox answers ${SANDBOX_ERROR_STATUS[code]})`,
          value: { code, message: defaultErrorMessage(code, endpoint) },
        },
      ]),
    );
    responses[range] = {
      description:
        range === '4XX'
          ? 'The request was refused; nothing was applied. The body names one of the documented codes.'
          : endpoint === 'deposit' || endpoint === 'withdraw'
            ? 'The service failed. The payment may or may not have been applied: retry only under the same reference_id, or read it back.'
            : 'The service failed; the request may be retried.',
      content: { 'application/json': { schema: ref(ERROR_BODY_SCHEMAS[endpoint]), examples } },
    };
  }
  return responses;
}
