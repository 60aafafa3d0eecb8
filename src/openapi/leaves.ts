import type * as core from 'zod/v4/core';
import {
  Amount,
  CURRENCY_CODE_PATTERN,
  CurrencyCode,
  EMAIL_PATTERN,
  EmailAddress,
  HttpUrl,
  TRANSACTION_STATUSES,
  TransactionStatus,
} from '../schemas/fields.js';
import { Description, ProviderName, ReferenceId, TransactionId } from '../schemas/requests.js';
import { finiteNumber, integer, text, textOrNull } from '../schemas/responses.js';
import {
  completionTime,
  looseEmail,
  nonBlank,
  numberOrText,
  reasonOrNull,
  transactionEvent,
  userAuthorizedEvent,
  webhookStatus,
  webhookText,
} from '../schemas/webhook.js';
import type { JsonSchema } from './types.js';

// The SDK's leaf fields are type guards (`checked()` in schemas/build.ts), which zod cannot turn into
// JSON Schema. Each says here, once, what it accepts; the generator fails on a leaf missing from this
// table, and test/openapi/leaves.test.ts checks every entry against its guard on the same values.

/** Not empty and not only whitespace (a lone UTF-16 surrogate has no JSON Schema). */
const nonBlankString: JsonSchema = { type: 'string', minLength: 1, pattern: '\\S' };
const statusEnum: JsonSchema = { type: 'string', enum: [...TRANSACTION_STATUSES] };
/** `Number.isSafeInteger`. */
const safeInteger: JsonSchema = {
  type: 'integer',
  minimum: Number.MIN_SAFE_INTEGER,
  maximum: Number.MAX_SAFE_INTEGER,
};

/** The JSON Schema of every leaf field of the SDK's schemas, by the leaf schema itself. */
export const LEAF_SCHEMAS: ReadonlyMap<core.$ZodType, JsonSchema> = new Map<core.$ZodType, JsonSchema>([
  [TransactionStatus, statusEnum],
  [Amount, { type: 'number', exclusiveMinimum: 0 }],
  [CurrencyCode, { type: 'string', pattern: CURRENCY_CODE_PATTERN.source }],
  [HttpUrl, { type: 'string', format: 'uri', pattern: '^[Hh][Tt][Tt][Pp][Ss]?:' }],
  [EmailAddress, { type: 'string', pattern: EMAIL_PATTERN.source }],
  [ReferenceId, nonBlankString],
  [ProviderName, nonBlankString],
  [TransactionId, nonBlankString],
  [Description, { type: 'string' }],
  [text, { type: 'string' }],
  [finiteNumber, { type: 'number' }],
  [integer, safeInteger],
  [textOrNull, { type: ['string', 'null'] }],
  [webhookText, { type: 'string' }],
  [nonBlank, nonBlankString],
  [userAuthorizedEvent, { type: 'string', const: 'user_authorized' }],
  [looseEmail, { type: 'string', pattern: '^[^\\s@]+@[^\\s@]+$' }],
  [transactionEvent, { type: 'string', const: 'transaction' }],
  [webhookStatus, statusEnum],
  [numberOrText, { type: ['number', 'string'] }],
  [reasonOrNull, { type: ['string', 'null'] }],
  [completionTime, safeInteger],
]);
