import type { WalletEndpoint } from '../error-codes.js';
import { TransactionId } from '../schemas/requests.js';
import { API_ROUTES } from '../testing/http/router.js';
import { errorResponses } from './errors.js';
import {
  bobProviders,
  depositCovered,
  depositPending,
  statusCompleted,
  statusPending,
  withdrawal,
} from './examples.js';
import { toJsonSchema } from './json-schema.js';
import type { JsonSchema } from './types.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: JsonSchema, examples: Record<string, { summary: string; value: unknown }>) => ({
  'application/json': { schema, examples },
});

/** Security requirements: the API key alone, or the API key and the user's token together. */
const API_KEY = [{ ApiKey: [] }];
const API_KEY_AND_USER = [{ ApiKey: [], UserToken: [] }];

/** One API operation: where it is served (from the sandbox's route table) and what it says. */
interface Operation {
  readonly endpoint: WalletEndpoint;
  readonly path: string;
  readonly body: JsonSchema;
}

function operation({ endpoint, body }: Operation): JsonSchema {
  const { responses, ...rest } = body as { responses: Record<string, unknown> };
  return { ...rest, responses: { ...responses, ...errorResponses(endpoint) } };
}

/** The four API operations, at the sandbox's paths, with their examples; error answers are added from the code table. */
const OPERATIONS: readonly Operation[] = [
  {
    endpoint: 'deposit',
    path: API_ROUTES.deposit.path,
    body: {
      operationId: 'deposit',
      tags: ['Payments'],
      summary: 'Deposit (C2B): take funds from a user',
      description:
        "Takes `amount` from the user's wallet at once when the balance covers it. Otherwise, with a " +
        '`payment_provider`, starts a deposit through that provider and answers `pending`; without one, ' +
        'answers `insufficient_balance`. The result is posted to `webhook_url`, or to the deposit webhook ' +
        'URL set in the merchant portal (see the `transaction` webhook).',
      security: API_KEY_AND_USER,
      requestBody: {
        required: true,
        content: json(ref('DepositRequest'), {
          covered: { summary: 'The wallet covers it: completed at once', value: depositCovered.request },
          pending: { summary: 'Through a provider: pending', value: depositPending.request },
        }),
      },
      responses: {
        '200': {
          description: 'The deposit was taken (`completed`) or started through the provider (`pending`).',
          content: json(ref('DepositResult'), {
            covered: { summary: 'Completed at once', value: depositCovered.response },
            pending: { summary: 'Pending at the provider', value: depositPending.response },
          }),
        },
      },
    },
  },
  {
    endpoint: 'withdraw',
    path: API_ROUTES.withdraw.path,
    body: {
      operationId: 'withdraw',
      tags: ['Payments'],
      summary: "Withdrawal (B2C): send funds to a user's wallet",
      description:
        "Sends `amount` from the merchant's account to the wallet of the user with `email`, and on to " +
        '`payment_provider` when one is named. Normally completes within the request.',
      security: API_KEY,
      requestBody: {
        required: true,
        content: json(ref('WithdrawRequest'), {
          wallet: { summary: "To alice's wallet", value: withdrawal.request },
        }),
      },
      responses: {
        '200': {
          description: 'The withdrawal, normally `completed`.',
          content: json(ref('WithdrawResult'), {
            wallet: { summary: 'Completed', value: withdrawal.response },
          }),
        },
      },
    },
  },
  {
    endpoint: 'status',
    path: `${API_ROUTES.status.path}{transaction_id}`,
    body: {
      operationId: 'getTransaction',
      tags: ['Lookups'],
      summary: 'Transaction status',
      description:
        'The current status of a transaction: the fallback when a webhook is missing, and the way to ' +
        'verify one. Poll with exponential backoff; webhooks are the primary channel.',
      security: API_KEY,
      parameters: [
        {
          name: 'transaction_id',
          in: 'path',
          required: true,
          description: 'The `transaction_id` returned when the transaction was created.',
          schema: toJsonSchema(TransactionId, 'input'),
          example: statusCompleted.transactionId,
        },
      ],
      responses: {
        '200': {
          description: 'The transaction. `amount` is a decimal string on this endpoint.',
          content: json(ref('TransactionResult'), {
            completed: { summary: 'Completed', value: statusCompleted.response },
            pending: { summary: 'Pending', value: statusPending.response },
          }),
        },
      },
    },
  },
  {
    endpoint: 'providers',
    path: API_ROUTES.providers.path,
    body: {
      operationId: 'listProviders',
      tags: ['Lookups'],
      summary: "A user's payment providers",
      description:
        'The providers the user has and their defaults. Only these can be named as `payment_provider` ' +
        'in a deposit for this user.',
      security: API_KEY_AND_USER,
      responses: {
        '200': {
          description: "The user's providers.",
          content: json(ref('ProviderList'), {
            bob: { summary: "Bob's providers", value: bobProviders.response },
          }),
        },
      },
    },
  },
];

/** The `paths` of the API document: the four endpoints under the base URL, and the login page. */
export function apiPaths(authServer: string): Record<string, JsonSchema> {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const op of OPERATIONS) {
    const method = API_ROUTES[op.endpoint].method.toLowerCase();
    paths[op.path] = { ...paths[op.path], [method]: operation(op) };
  }
  paths['/login'] = { get: loginPage(authServer) };
  return paths;
}

function loginPage(authServer: string): JsonSchema {
  const html = { 'text/html': { schema: { type: 'string' } } };
  return {
    operationId: 'loginPage',
    tags: ['Login'],
    summary: 'User login page (opened in a browser)',
    description:
      'Not an API call: the merchant sends the user here; the user signs in and approves the ' +
      'application; the service posts the user token to the `user_authorized` webhook, then sends ' +
      'the browser to `redirect_url`. The page never returns a token.',
    servers: [{ url: authServer, description: 'The auth URL ({auth_url} in the spec); here the sandbox.' }],
    security: [],
    parameters: [
      {
        name: 'app_id',
        in: 'query',
        required: true,
        description: 'The application id assigned at registration.',
        schema: { type: 'string', minLength: 1 },
        example: 'app_demo_shop',
      },
      {
        name: 'redirect_url',
        in: 'query',
        required: true,
        description: 'Where the browser goes after the login (URL-encoded; https except for loopback).',
        schema: { type: 'string', format: 'uri' },
        example: 'https://shop.example/wallet/connected',
      },
    ],
    responses: {
      '200': { description: 'The HTML login page.', content: html },
      '400': { description: 'An HTML page saying what is wrong with the link.', content: html },
    },
  };
}
