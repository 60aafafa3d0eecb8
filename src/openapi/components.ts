import type * as core from 'zod/v4/core';
import { DepositRequest, WithdrawRequest } from '../schemas/requests.js';
import { DepositResult, ProviderList, TransactionResult, WithdrawResult } from '../schemas/responses.js';
import { TransactionWebhook, UserAuthorizedWebhook } from '../schemas/webhook.js';
import { describeFields, readFieldDocs } from './field-docs.js';
import { toJsonSchema } from './json-schema.js';
import type { JsonSchema } from './types.js';

/** One component schema made from a zod schema of the SDK. */
export interface SchemaComponent {
  /** The zod schema. */
  readonly schema: core.$ZodType;
  /** `input` for what a client sends, `output` for what it reads. */
  readonly io: 'input' | 'output';
  /** Where the SDK exports the schema's type: the entry and the name. */
  readonly exportedAs: readonly [entry: 'merchant-wallet' | 'merchant-wallet/webhooks', name: string];
  /** The component's description. */
  readonly description: string;
}

/** Every component made from the SDK's schemas, by component name (the name the SDK exports). */
export const SCHEMA_COMPONENTS = {
  DepositRequest: {
    schema: DepositRequest,
    io: 'input',
    exportedAs: ['merchant-wallet', 'DepositRequest'],
    description: 'Body of a deposit (C2B). Fields not named here are refused.',
  },
  DepositResult: {
    schema: DepositResult,
    io: 'output',
    exportedAs: ['merchant-wallet', 'DepositResult'],
    description: 'Result of a deposit. `amount` is a number on this endpoint.',
  },
  WithdrawRequest: {
    schema: WithdrawRequest,
    io: 'input',
    exportedAs: ['merchant-wallet', 'WithdrawRequest'],
    description:
      'Body of a withdrawal (B2C). Send a `reference_id` (the SDK makes one when absent) so that a ' +
      'retry can never pay twice.',
  },
  WithdrawResult: {
    schema: WithdrawResult,
    io: 'output',
    exportedAs: ['merchant-wallet', 'WithdrawResult'],
    description:
      'Result of a withdrawal. `date_completed` is a `YYYYMMDDHHMMSS` integer (UTC in the sandbox).',
  },
  TransactionResult: {
    schema: TransactionResult,
    io: 'output',
    exportedAs: ['merchant-wallet', 'TransactionResult'],
    description:
      'Result of a status lookup. `amount` is a decimal string on this endpoint; `failure_reason` is ' +
      'set when the status is `failed` and `null` otherwise.',
  },
  ProviderList: {
    schema: ProviderList,
    io: 'output',
    exportedAs: ['merchant-wallet', 'ProviderList'],
    description: "A user's payment providers and defaults.",
  },
  UserAuthorizedWebhook: {
    schema: UserAuthorizedWebhook,
    io: 'output',
    exportedAs: ['merchant-wallet/webhooks', 'UserAuthorizedWebhook'],
    description: 'Body of the `user_authorized` webhook. `token` is a secret: store it encrypted.',
  },
  TransactionWebhook: {
    schema: TransactionWebhook,
    io: 'output',
    exportedAs: ['merchant-wallet/webhooks', 'TransactionWebhook'],
    description:
      'Body of the transaction-result webhook. The spec does not show its fields; these are the ' +
      "status response's, with `amount` a number or a string. Unsigned: read the transaction back " +
      'from the status endpoint before trusting it.',
  },
} as const satisfies Record<string, SchemaComponent>;

/** The modules whose exported object schemas the components are: their field TSDoc describes the fields. */
const SCHEMA_MODULES = ['requests', 'responses', 'webhook'].map(
  (name) => new URL(`../schemas/${name}.ts`, import.meta.url),
);

/** The component schemas made from the SDK's zod schemas, each field described by its TSDoc. */
export function zodComponents(): Record<string, JsonSchema> {
  const docs = readFieldDocs(SCHEMA_MODULES);
  return Object.fromEntries(
    Object.entries(SCHEMA_COMPONENTS).map(([name, component]: [string, SchemaComponent]) => [
      name,
      describeFields(
        { description: component.description, ...toJsonSchema(component.schema, component.io) },
        docs.get(name) ?? new Map(),
      ),
    ]),
  );
}
