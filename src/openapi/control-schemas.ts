import { DELIVERY_MODES } from '../testing/model/delivery-plan.js';
import type { JsonSchema } from './types.js';

// The control API has no zod schemas: the sandbox checks its bodies with the same code as the
// in-process facade (`sandbox.settle`, `faults.inject`, ...), which reports a refused field as a 400.
// These schemas say what each body may hold; the sandbox stays the judge of bounds.

const duration = {
  description: 'Milliseconds, or a duration such as `"30s"`, `"6m"`, `"2h"`.',
  type: ['integer', 'string'],
};
const plan = {
  description: 'A delivery plan: its mode alone, or the mode and how long a held delivery waits.',
  oneOf: [
    { type: 'string', enum: [...DELIVERY_MODES] },
    {
      type: 'object',
      required: ['mode'],
      properties: { mode: { type: 'string', enum: [...DELIVERY_MODES] }, delayMs: duration },
    },
  ],
};
const anyObject = { type: 'object', additionalProperties: true };

/** The components of the control API document. */
export const CONTROL_SCHEMAS: Record<string, JsonSchema> = {
  DeliveryPlan: plan,
  SettleRequest: {
    type: 'object',
    properties: {
      status: { type: 'string', enum: ['completed', 'failed'], default: 'completed' },
      failure_reason: { type: 'string' },
      delivery: { $ref: '#/components/schemas/DeliveryPlan' },
    },
  },
  PlanRequest: {
    type: 'object',
    required: ['mode'],
    properties: {
      mode: { type: 'string', enum: [...DELIVERY_MODES] },
      delayMs: duration,
      count: { type: 'integer', minimum: 1 },
      event: { type: 'string', enum: ['user_authorized', 'transaction'] },
    },
  },
  MerchantPatch: {
    type: 'object',
    properties: {
      active: { type: 'boolean' },
      authWebhookUrl: { type: ['string', 'null'], format: 'uri' },
      depositWebhookUrl: { type: ['string', 'null'], format: 'uri' },
    },
  },
  BalanceTarget: {
    type: 'object',
    required: ['currency', 'amount'],
    properties: {
      appId: { type: 'string' },
      email: { type: 'string' },
      provider: { type: 'string' },
      currency: { type: 'string' },
      amount: { type: 'number', minimum: 0 },
    },
  },
  SandboxUser: {
    type: 'object',
    required: ['email'],
    description: 'A seed user: `email`, `balances` by currency, `providers`, defaults, `active`.',
    properties: {
      email: { type: 'string' },
      active: { type: 'boolean' },
      balances: { type: 'object', additionalProperties: { type: 'number' } },
      providers: { type: 'array', items: anyObject },
      default_deposit_provider: { type: 'string' },
      default_withdraw_provider: { type: 'string' },
    },
  },
  AuthorizeRequest: {
    type: 'object',
    required: ['email', 'appId'],
    properties: { email: { type: 'string' }, appId: { type: 'string' } },
  },
  RevokeRequest: {
    type: 'object',
    description: 'One token, or every token of a user (for one app when `appId` is given).',
    properties: { token: { type: 'string' }, email: { type: 'string' }, appId: { type: 'string' } },
  },
  FaultSpec: {
    ...anyObject,
    required: ['kind'],
    description: 'A fault: what happens (`kind` and its fields) and when (`route`, `times`, `every`, ...).',
    properties: {
      kind: { type: 'string' },
      route: { type: 'string', enum: ['deposit', 'withdraw', 'status', 'providers'] },
      times: {
        oneOf: [{ type: 'integer', minimum: 1 }, { type: 'string', const: 'Infinity' }, { type: 'null' }],
      },
    },
  },
  ClockAdvance: { type: 'object', required: ['by'], properties: { by: duration } },
  Clock: {
    type: 'object',
    required: ['now', 'offset_ms', 'pending'],
    properties: {
      now: { type: 'string', format: 'date-time' },
      offset_ms: { type: 'integer' },
      pending: { type: 'integer', description: 'Timed events still to run.' },
      ran: { type: 'integer', description: 'Timed events this advance ran.' },
    },
  },
  ControlError: {
    type: 'object',
    required: ['error', 'message'],
    properties: {
      error: {
        type: 'string',
        enum: [
          'invalid_request',
          'record_not_found',
          'unauthorized',
          'not_found',
          'method_not_allowed',
          'payload_too_large',
        ],
      },
      message: { type: 'string', description: 'Names the refused field: `<field>: <problem>`.' },
    },
  },
  Ledger: {
    type: 'object',
    required: ['transactions', 'balances', 'totals'],
    properties: {
      transactions: { type: 'array', items: anyObject },
      balances: anyObject,
      totals: { type: 'object', additionalProperties: { type: 'number' } },
    },
  },
};
