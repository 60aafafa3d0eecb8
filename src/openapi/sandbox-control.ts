import packageJson from '../../package.json' with { type: 'json' };
import { FORGERY_KINDS } from '../testing/forge/forgery.js';
import { CONTROL_KEY_HEADER, CONTROL_PREFIX } from '../testing/http/control.js';
import { CONTROL_SCHEMAS } from './control-schemas.js';
import type { JsonSchema } from './types.js';
import { SANDBOX_SERVER } from './wallet-api.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const jsonBody = (schema: JsonSchema) => ({ 'application/json': { schema } });
const anyObject = { type: 'object', additionalProperties: true };

/** What one control operation says, by `METHOD path` as in the sandbox's route table. */
interface ControlOperation {
  readonly operationId: string;
  readonly summary: string;
  readonly request?: JsonSchema;
  readonly answer: JsonSchema;
  readonly id?: string;
}

/** Every control operation, keyed by `METHOD path` of `CONTROL_ROUTES`. */
export const CONTROL_OPERATIONS: Readonly<Record<string, ControlOperation>> = {
  'GET /ledger': {
    operationId: 'getLedger',
    summary: 'Every transaction, every balance and the total money per currency',
    answer: ref('Ledger'),
  },
  'POST /transactions/{id}/settle': {
    operationId: 'settleDeposit',
    summary: 'End a pending deposit and send its result webhook',
    id: 'The `transaction_id` of a pending deposit.',
    request: ref('SettleRequest'),
    answer: { type: 'object', required: ['transaction'], properties: { transaction: anyObject } },
  },
  'GET /webhooks': {
    operationId: 'listDeliveries',
    summary: 'The webhook delivery log, each delivery with its attempts',
    answer: {
      type: 'object',
      required: ['deliveries'],
      properties: { deliveries: { type: 'array', items: anyObject } },
    },
  },
  'POST /webhooks/{id}/redeliver': {
    operationId: 'redeliver',
    summary: 'Send a delivery again',
    id: 'The delivery id (`whd_1`, ...).',
    request: { type: 'object', properties: { mode: { type: 'string' }, delayMs: {} } },
    answer: { type: 'object', required: ['delivery'], properties: { delivery: anyObject } },
  },
  'POST /webhooks/plan': {
    operationId: 'planDeliveries',
    summary: 'Make the next webhooks misbehave (twice, late, out of order, dropped)',
    request: ref('PlanRequest'),
    answer: { type: 'object' },
  },
  'POST /merchants/{id}': {
    operationId: 'updateMerchant',
    summary: "Change a merchant's active flag or webhook URLs",
    id: "The merchant's app id.",
    request: ref('MerchantPatch'),
    answer: { type: 'object' },
  },
  'POST /balances': {
    operationId: 'setBalance',
    summary: 'Set one balance (creates or destroys money, unlike a request)',
    request: ref('BalanceTarget'),
    answer: { type: 'object', required: ['balances'], properties: { balances: anyObject } },
  },
  'POST /users': {
    operationId: 'putUser',
    summary: 'Add a user or replace the one with that e-mail',
    request: ref('SandboxUser'),
    answer: { type: 'object' },
  },
  'POST /tokens': {
    operationId: 'authorizeUser',
    summary: 'Issue a user token, as approving the login page does (sends user_authorized)',
    request: ref('AuthorizeRequest'),
    answer: { type: 'object', required: ['token'], properties: { token: { type: 'string' } } },
  },
  'POST /tokens/revoke': {
    operationId: 'revokeTokens',
    summary: 'End tokens, as a user revoking the app does',
    request: ref('RevokeRequest'),
    answer: anyObject,
  },
  'POST /faults': {
    operationId: 'injectFault',
    summary: 'Arm a fault on the API routes',
    request: ref('FaultSpec'),
    answer: { type: 'object', required: ['pending'], properties: { pending: { type: 'integer' } } },
  },
  'DELETE /faults': {
    operationId: 'clearFaults',
    summary: 'Remove every fault',
    answer: { type: 'object', required: ['pending'], properties: { pending: { type: 'integer' } } },
  },
  'GET /clock': { operationId: 'getClock', summary: "The sandbox's time", answer: ref('Clock') },
  'POST /clock/advance': {
    operationId: 'advanceClock',
    summary: 'Move the sandbox clock on, running what falls due (settlements, held webhooks)',
    request: ref('ClockAdvance'),
    answer: ref('Clock'),
  },
  'GET /webhooks/retries': {
    operationId: 'getWebhookRetries',
    summary: 'The retry policy of webhook deliveries started from now on',
    answer: { type: 'object', required: ['retries'], properties: { retries: anyObject } },
  },
  'POST /webhooks/retries': {
    operationId: 'setWebhookRetries',
    summary: 'Change the retry policy: attempts, a schedule of waits (durations or ms), or doubling backoff',
    request: {
      type: 'object',
      properties: {
        attempts: { type: 'integer' },
        schedule: { type: 'array', items: { oneOf: [{ type: 'string' }, { type: 'integer' }] } },
        backoffMs: { type: 'integer' },
        timeoutMs: { type: 'integer' },
      },
    },
    answer: { type: 'object', required: ['retries'], properties: { retries: anyObject } },
  },
  'POST /webhooks/forge': {
    operationId: 'forgeWebhook',
    summary:
      'Send a forged, malformed, oversized or unknown webhook, as an attacker or a broken network would',
    request: {
      type: 'object',
      required: ['kind'],
      properties: {
        kind: { type: 'string', enum: [...FORGERY_KINDS] },
        transactionId: { type: 'string' },
        url: { type: 'string' },
        appId: { type: 'string' },
        bytes: { type: 'integer' },
        delivery: { type: 'string' },
      },
    },
    answer: { type: 'object', required: ['delivery'], properties: { delivery: anyObject } },
  },
  'POST /certify': {
    operationId: 'certifyEndpoint',
    summary: "Grade a merchant's webhook endpoint: each check pass, warn or fail, with a fix line",
    request: {
      type: 'object',
      required: ['url'],
      properties: {
        url: { type: 'string' },
        appId: { type: 'string' },
        timeoutMs: { type: 'integer' },
      },
    },
    answer: anyObject,
  },
  'POST /reset': { operationId: 'reset', summary: 'Back to the seed', answer: { type: 'object' } },
};

const errors = {
  '400': { description: 'A refused field, named in `message`.', content: jsonBody(ref('ControlError')) },
  '401': { description: `No or wrong \`${CONTROL_KEY_HEADER}\`.`, content: jsonBody(ref('ControlError')) },
  '404': {
    description: 'No such record, or the control API is off (the sandbox has no control key).',
    content: jsonBody(ref('ControlError')),
  },
};

function operation(op: ControlOperation): JsonSchema {
  return {
    operationId: op.operationId,
    summary: op.summary,
    tags: ['Control'],
    ...(op.id === undefined
      ? {}
      : {
          parameters: [
            { name: 'id', in: 'path', required: true, description: op.id, schema: { type: 'string' } },
          ],
        }),
    ...(op.request === undefined ? {} : { requestBody: { required: false, content: jsonBody(op.request) } }),
    responses: { '200': { description: 'Done.', content: jsonBody(op.answer) }, ...errors },
  };
}

/** The OpenAPI 3.1 document of the sandbox's control API (`merchant-wallet/sandbox-control.openapi.json`). */
export function sandboxControlDocument(): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const [key, op] of Object.entries(CONTROL_OPERATIONS)) {
    const [method = '', path = ''] = key.split(' ');
    const full = `${CONTROL_PREFIX}${path}`;
    paths[full] = { ...paths[full], [method.toLowerCase()]: operation(op) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Merchant Wallet sandbox control API',
      version: packageJson.version,
      description:
        'Drives the merchant-wallet sandbox from any language: settle deposits, advance its clock, ' +
        'inspect webhook deliveries, inject faults. Only the sandbox has it; see docs/sandbox.md.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: SANDBOX_SERVER.baseUrl, description: 'The sandbox (`npx merchant-wallet sandbox`).' }],
    security: [{ ControlKey: [] }],
    tags: [{ name: 'Control', description: 'Operations on the sandbox itself.' }],
    paths,
    components: {
      securitySchemes: {
        ControlKey: {
          type: 'apiKey',
          in: 'header',
          name: CONTROL_KEY_HEADER,
          description: 'The control key the sandbox was started with (the CLI prints it).',
        },
      },
      schemas: CONTROL_SCHEMAS,
    },
  };
}
