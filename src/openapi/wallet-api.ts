import packageJson from '../../package.json' with { type: 'json' };
import { zodComponents } from './components.js';
import { errorSchemas } from './errors.js';
import { transactionResultExample, userAuthorizedExample } from './examples.js';
import { apiPaths } from './operations.js';
import type { JsonSchema } from './types.js';

/** Where `npx merchant-wallet sandbox` serves the API and the login page by default. */
export const SANDBOX_SERVER = { baseUrl: 'http://127.0.0.1:4010', authUrl: 'http://127.0.0.1:4010/auth' };

const DESCRIPTION = `The Merchant Wallet Payments API: deposits (C2B), withdrawals (B2C), transaction status,
a user's payment providers, the user login page and the webhooks the service sends.

Generated from the zod schemas of the merchant-wallet SDK, so it says what the SDK sends and accepts.
Where the spec says "not shown" (the HTTP status of each error code, the JSON shape of error bodies,
the fields of the transaction-result webhook) this document describes what the SDK accepts and the
sandbox answers. What it cannot say, such as retrying a payment only under the same \`reference_id\`
and never taking an unknown outcome for a failure, is in docs/openapi.md and docs/reliability.md of
the package.`;

function webhook(operationId: string, summary: string, schema: string, example: unknown): JsonSchema {
  return {
    post: {
      operationId,
      tags: ['Webhooks'],
      summary,
      description:
        'Sent by the service to a merchant URL, unsigned. Answer 2xx once the event is stored; any ' +
        'other answer may be retried.',
      security: [],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: { $ref: `#/components/schemas/${schema}` },
            examples: { example: { summary, value: example } },
          },
        },
      },
      responses: {
        '200': { description: 'Received.' },
        '5XX': { description: 'Not processed; the service sends the event again.' },
      },
    },
  };
}

/** The OpenAPI 3.1 document of the Merchant Wallet Payments API (`merchant-wallet/openapi.json`). */
export function walletApiDocument(): JsonSchema {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Merchant Wallet Payments API',
      version: packageJson.version,
      description: DESCRIPTION,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [
      {
        url: SANDBOX_SERVER.baseUrl,
        description:
          'The sandbox (`npx merchant-wallet sandbox`); the spec does not show a production address.',
      },
    ],
    tags: [
      { name: 'Payments', description: 'Moving money: deposits (C2B) and withdrawals (B2C).' },
      { name: 'Lookups', description: "Reading a transaction and a user's providers." },
      { name: 'Login', description: 'The browser page where a user authorizes an application.' },
      { name: 'Webhooks', description: 'What the service posts to the merchant.' },
    ],
    paths: apiPaths(SANDBOX_SERVER.authUrl),
    webhooks: {
      user_authorized: webhook(
        'userAuthorized',
        'A user approved the application',
        'UserAuthorizedWebhook',
        userAuthorizedExample,
      ),
      transaction: webhook(
        'transactionResult',
        'A deposit reached its final status',
        'TransactionWebhook',
        transactionResultExample,
      ),
    },
    components: {
      securitySchemes: {
        ApiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'x-api-key',
          description: "The merchant's API key; required on every API endpoint.",
        },
        UserToken: {
          type: 'http',
          scheme: 'bearer',
          description:
            'The user token delivered by the `user_authorized` webhook; required by deposits and the ' +
            'provider listing.',
        },
      },
      schemas: { ...zodComponents(), ...errorSchemas() },
    },
  };
}
