import { describe, expect, test } from 'vitest';
import * as core from 'zod/v4/core';
import { array, checked, isString, looseObject } from '../../src/schemas/build.js';
import { fastParse, UNDECIDED } from '../../src/schemas/fast-parse.js';
import { DepositRequest, TransactionId, WithdrawRequest } from '../../src/schemas/requests.js';
import {
  DepositResult,
  MobilePaymentProvider,
  TransactionResult,
  WithdrawResult,
} from '../../src/schemas/responses.js';
import { TransactionWebhook, UserAuthorizedWebhook } from '../../src/schemas/webhook.js';

/** A valid value of each schema the fast path covers. */
const VALID: [string, core.$ZodType, Record<string, unknown>][] = [
  [
    'DepositRequest',
    DepositRequest,
    { reference_id: 'order-1', amount: 10, currency: 'KES', description: 'tea', payment_provider: 'mpesa' },
  ],
  ['WithdrawRequest', WithdrawRequest, { email: 'user@example.com', amount: 250, currency: 'KES' }],
  [
    'DepositResult',
    DepositResult,
    { transaction_id: 't1', reference_id: 'r1', transaction_status: 'pending', amount: 10, currency: 'KES' },
  ],
  [
    'WithdrawResult',
    WithdrawResult,
    {
      transaction_id: 't1',
      transaction_status: 'completed',
      amount: 250,
      currency: 'KES',
      date_completed: 20261123081500,
    },
  ],
  [
    'TransactionResult',
    TransactionResult,
    {
      transaction_id: 'txn_1',
      reference_id: 'order-1',
      transaction_status: 'failed',
      amount: '10.00',
      currency: 'KES',
      failure_reason: 'insufficient_funds',
    },
  ],
  ['MobilePaymentProvider', MobilePaymentProvider, { provider_name: 'mpesa', phone_number: '+254700000000' }],
  [
    'UserAuthorizedWebhook',
    UserAuthorizedWebhook,
    { event: 'user_authorized', user_email: 'a@b.c', token: 'tok' },
  ],
  [
    'TransactionWebhook',
    TransactionWebhook,
    {
      event: 'transaction',
      transaction_id: 't1',
      transaction_status: 'completed',
      amount: '10.00',
      failure_reason: null,
    },
  ],
];

/** Values a field may be given that are wrong for most fields, or right for some. */
const FIELD_VALUES = [
  undefined,
  null,
  '',
  ' ',
  'x',
  'completed',
  0,
  -1,
  1.5,
  10,
  Number.NaN,
  true,
  {},
  [],
  '\uD800',
];

/** Variations of `valid`: each field replaced, removed or duplicated in kind, keys added, order changed. */
function variations(valid: Record<string, unknown>): unknown[] {
  const values: unknown[] = [valid, { ...valid, extra: 1 }, { extra: 'first', ...valid }];
  values.push(Object.fromEntries(Object.entries(valid).reverse()));
  for (const key of Object.keys(valid)) {
    const { [key]: _removed, ...rest } = valid;
    values.push(rest);
    for (const value of FIELD_VALUES) values.push({ ...valid, [key]: value });
  }
  values.push(JSON.parse(`{"__proto__": {"polluted": true}, ${JSON.stringify(valid).slice(1)}`));
  values.push(Object.assign(Object.create({ inherited: 'yes' }), valid));
  values.push(Object.assign(Object.create({ currency: 'KES' }), { ...valid, currency: undefined }));
  values.push(null, undefined, 'text', 7, [valid]);
  return values;
}

function zodParse(schema: core.$ZodType, value: unknown) {
  return core.safeParse(schema, value);
}

describe.each(VALID)('%s', (_name, schema, valid) => {
  test('the fast path decides a valid value, with the keys and values zod gives, in zod order', () => {
    const fast = fastParse(schema, valid);
    const zod = zodParse(schema, valid);

    expect(fast).not.toBe(UNDECIDED);
    expect(zod.success).toBe(true);
    expect(fast).toEqual(zod.data);
    expect(Object.keys(fast as object)).toEqual(Object.keys(zod.data as object));
    expect(fast).not.toBe(valid);
  });

  test('whatever the fast path decides, zod decides the same; what zod refuses, the fast path leaves to zod', () => {
    const decided = variations(valid).filter((value) => {
      const fast = fastParse(schema, value);
      const zod = zodParse(schema, value);
      if (fast === UNDECIDED) return false;
      expect(zod.success).toBe(true);
      expect(fast).toEqual(zod.data);
      expect(Object.keys(fast as object)).toEqual(Object.keys(zod.data as object));
      expect(Object.getPrototypeOf(fast)).toBe(Object.prototype);
      return true;
    });
    for (const value of variations(valid)) {
      if (!zodParse(schema, value).success) expect(fastParse(schema, value)).toBe(UNDECIDED);
    }
    expect(decided.length).toBeGreaterThan(1);
  });
});

describe('schemas the fast path leaves to zod', () => {
  test('an identifier is decided by its own guard, and a refused one is left to zod', () => {
    expect(fastParse(TransactionId, 'txn_1')).toBe('txn_1');
    for (const value of ['', '  ', 7, null, '\uD800x']) {
      expect(zodParse(TransactionId, value).success).toBe(false);
      expect(fastParse(TransactionId, value)).toBe(UNDECIDED);
    }
  });

  test('an object with a field that is not a guard (an array, a nested object) is always zod’s', () => {
    const withArray = looseObject({ names: array(checked(isString, 'must be a string')) });
    expect(fastParse(withArray, { names: ['a'] })).toBe(UNDECIDED);
    const nested = looseObject({ inner: looseObject({ name: checked(isString, 'must be a string') }) });
    expect(fastParse(nested, { inner: { name: 'a' } })).toBe(UNDECIDED);
  });

  test('a guard with checks of its own is zod’s, since the fast path would skip them', () => {
    const guarded = checked(isString, 'must be a string');
    const refined = new core.$ZodCustom({
      ...guarded._zod.def,
      checks: [new core.$ZodCheckMinLength({ check: 'min_length', minimum: 3 })],
    });
    expect(fastParse(refined, 'ab')).toBe(UNDECIDED);
  });
});
