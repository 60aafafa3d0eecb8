import type * as core from 'zod/v4/core';
import { TRANSACTION_STATUSES, TransactionStatus } from '../schemas/fields.js';
import { DepositRequest, TransactionId, WithdrawRequest } from '../schemas/requests.js';
import {
  DepositResult,
  MobilePaymentProvider,
  ProviderList,
  TransactionResult,
  WithdrawResult,
} from '../schemas/responses.js';
import { TransactionWebhook, UserAuthorizedWebhook } from '../schemas/webhook.js';
import type { JsonSchema } from './types.js';

// The SDK's leaf fields are type guards (`checked()` in schemas/build.ts), which zod cannot turn into
// JSON Schema, and which stay unnamed so the client bundle does not grow for this. Each is found here
// through the object schema that holds it and says, once, what it accepts. The generator fails on a
// leaf missing from this table, and test/openapi/leaves.test.ts checks every entry against its guard.

const string: JsonSchema = { type: 'string' };
const number: JsonSchema = { type: 'number' };
/** Not empty and not only whitespace (a lone UTF-16 surrogate has no JSON Schema). */
const nonBlank: JsonSchema = { type: 'string', minLength: 1, pattern: '\\S' };
const status: JsonSchema = { type: 'string', enum: [...TRANSACTION_STATUSES] };
/** `Number.isSafeInteger`. */
const safeInteger: JsonSchema = {
  type: 'integer',
  minimum: Number.MIN_SAFE_INTEGER,
  maximum: Number.MAX_SAFE_INTEGER,
};
const stringOrNull: JsonSchema = { type: ['string', 'null'] };
const amount: JsonSchema = { type: 'number', exclusiveMinimum: 0 };
const currency: JsonSchema = { type: 'string', pattern: '^[A-Za-z0-9]{1,16}$' };

/** The JSON Schema of each leaf field, by the object schema that holds it and the field's name. */
const FIELDS: readonly (readonly [core.$ZodType, Readonly<Record<string, JsonSchema>>])[] = [
  [
    DepositRequest,
    {
      reference_id: nonBlank,
      amount,
      currency,
      payment_provider: nonBlank,
      description: string,
      webhook_url: { type: 'string', format: 'uri', pattern: '^[Hh][Tt][Tt][Pp][Ss]?:' },
    },
  ],
  [
    WithdrawRequest,
    {
      // zod's e-mail pattern, as EMAIL_PATTERN in schemas/fields.ts holds it.
      email: {
        type: 'string',
        pattern:
          "^(?:[A-Za-z0-9_'+\\-]+\\.)*[A-Za-z0-9_'+\\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\\-]*\\.)+[A-Za-z]{2,}$",
      },
      amount,
      currency,
      reference_id: nonBlank,
      payment_provider: nonBlank,
      description: string,
    },
  ],
  [
    DepositResult,
    {
      transaction_id: string,
      reference_id: string,
      transaction_status: status,
      amount: number,
      currency: string,
    },
  ],
  [WithdrawResult, { reference_id: string, date_completed: safeInteger }],
  [TransactionResult, { reference_id: string, amount: string, failure_reason: stringOrNull }],
  [ProviderList, { default_deposit_provider: string, default_withdraw_provider: string }],
  [MobilePaymentProvider, { provider_name: string, phone_number: string }],
  [
    UserAuthorizedWebhook,
    {
      event: { type: 'string', const: 'user_authorized' },
      user_email: { type: 'string', pattern: '^[^\\s@]+@[^\\s@]+$' },
      token: nonBlank,
    },
  ],
  [
    TransactionWebhook,
    {
      event: { type: 'string', const: 'transaction' },
      transaction_id: nonBlank,
      transaction_status: status,
      reference_id: string,
      amount: { type: ['number', 'string'] },
      currency: string,
      failure_reason: stringOrNull,
      date_completed: safeInteger,
    },
  ],
];

/** The schema of `key` in the object schema `object`, unwrapped from `optional()`. */
function fieldOf(object: core.$ZodType, key: string): core.$ZodType {
  let field = (object._zod.def as core.$ZodObjectDef).shape[key];
  if (field === undefined) throw new Error(`the leaf table names a field the schema does not have: ${key}`);
  if (field._zod.def.type === 'optional') field = (field._zod.def as core.$ZodOptionalDef).innerType;
  return field;
}

/** The JSON Schema of every leaf of the SDK's schemas, by the leaf schema itself. */
export const LEAF_SCHEMAS: ReadonlyMap<core.$ZodType, JsonSchema> = new Map<core.$ZodType, JsonSchema>([
  [TransactionStatus, status],
  [TransactionId, nonBlank],
  ...FIELDS.flatMap(([object, fields]) =>
    Object.entries(fields).map(([key, json]): [core.$ZodType, JsonSchema] => [fieldOf(object, key), json]),
  ),
]);
