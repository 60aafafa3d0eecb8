import { describe, expect, test } from 'vitest';
import { regexes } from 'zod/v4/core';
import { WalletRequestValidationError, WalletResponseValidationError } from '../../src/index.js';
import { EMAIL_PATTERN } from '../../src/schemas/fields.js';
import { TransactionId, WithdrawRequest } from '../../src/schemas/requests.js';
import { ProviderList, TransactionResult, WithdrawResult } from '../../src/schemas/responses.js';
import { validateRequest, validateResponse } from '../../src/schemas/validate.js';

function requestIssues(schema: Parameters<typeof validateRequest>[0], value: unknown, subject: string) {
  try {
    validateRequest(schema, value, subject);
  } catch (error) {
    expect(error).toBeInstanceOf(WalletRequestValidationError);
    return (error as WalletRequestValidationError).issues;
  }
  throw new Error('the value was accepted');
}

function responseIssues(schema: Parameters<typeof validateResponse>[0], body: unknown) {
  try {
    validateResponse(schema, body, 'status', 200);
  } catch (error) {
    expect(error).toBeInstanceOf(WalletResponseValidationError);
    return (error as WalletResponseValidationError).issues;
  }
  throw new Error('the body was accepted');
}

const withdrawal = { email: 'user@example.com', amount: 250, currency: 'KES' };
const withdrawResult = {
  transaction_id: 't1',
  transaction_status: 'completed',
  amount: 250,
  currency: 'KES',
};

describe('request fields name their problem', () => {
  test.each([
    ['email', 'user@', 'must be a valid e-mail address'],
    ['email', 7, 'must be a valid e-mail address'],
    ['email', undefined, 'is required'],
    ['amount', Number.NaN, 'must be a finite number'],
    ['amount', '250', 'must be a finite number'],
    ['amount', 0, 'must be greater than zero'],
    ['currency', 'K E S', 'must be a currency code of letters or digits such as "KES"'],
    ['currency', 404, 'must be a string currency code such as "KES"'],
    ['reference_id', '  ', 'must not be empty (your unique id for this payment)'],
    ['reference_id', 'a\uD800', 'must not contain a lone UTF-16 surrogate (your unique id for this payment)'],
    ['reference_id', 1, 'must be a string (your unique id for this payment)'],
    ['description', 1, 'must be a string'],
  ])('withdrawal %s %j: %s', (field, value, message) => {
    expect(requestIssues(WithdrawRequest, { ...withdrawal, [field]: value }, 'withdrawal request')).toEqual([
      { path: field, message },
    ]);
  });

  test('a field the request does not document is refused by name, along with every other problem', () => {
    expect(requestIssues(WithdrawRequest, { ...withdrawal, amount: -1, memo: 'x' }, 'withdrawal')).toEqual([
      { path: 'amount', message: 'must be greater than zero' },
      { path: 'memo', message: 'is not a documented field' },
    ]);
  });

  test('a single value is named by its subject', () => {
    expect(requestIssues(TransactionId, '', 'transaction id')).toEqual([
      {
        path: 'transaction id',
        message: 'must not be empty (the transaction_id returned when the transaction was created)',
      },
    ]);
  });
});

describe('response fields are reported in zod’s words', () => {
  test.each([
    ['transaction_id', 7, 'must be of type string'],
    ['transaction_id', undefined, 'is required'],
    ['amount', Number.POSITIVE_INFINITY, 'must be of type number'],
    ['transaction_status', 'done', 'must be one of "pending", "completed", "failed"'],
    ['date_completed', '20261121143005', 'must be of type number'],
    ['date_completed', 20261121143005.5, 'must be of type int'],
    ['date_completed', 2 ** 53, 'is invalid (too_big)'],
    ['date_completed', -(2 ** 53), 'is invalid (too_small)'],
  ])('withdrawal result %s %j: %s', (field, value, message) => {
    expect(responseIssues(WithdrawResult, { ...withdrawResult, [field]: value })).toEqual([
      { path: field, message },
    ]);
  });

  test('failure_reason may be null or absent, and is otherwise a string', () => {
    const result = { ...withdrawResult, amount: '250.00' };
    expect(validateResponse(TransactionResult, { ...result, failure_reason: null }, 'status', 200)).toEqual({
      ...result,
      failure_reason: null,
    });
    expect(responseIssues(TransactionResult, { ...result, failure_reason: 1 })).toEqual([
      { path: 'failure_reason', message: 'must be of type string' },
    ]);
  });

  test('nested objects and arrays give dotted paths, and unknown fields are kept', () => {
    const providers = { default_deposit_provider: 'a', default_withdraw_provider: 'b' };
    expect(responseIssues(ProviderList, { ...providers, payment_providers: {} })).toEqual([
      { path: 'payment_providers.mobile_payment_providers', message: 'is required' },
    ]);
    expect(
      responseIssues(ProviderList, {
        ...providers,
        payment_providers: { mobile_payment_providers: [1, {}] },
      }),
    ).toEqual([
      { path: 'payment_providers.mobile_payment_providers.0', message: 'must be of type object' },
      { path: 'payment_providers.mobile_payment_providers.1.provider_name', message: 'is required' },
      { path: 'payment_providers.mobile_payment_providers.1.phone_number', message: 'is required' },
    ]);
    const body = {
      ...providers,
      extra: 1,
      payment_providers: {
        mobile_payment_providers: [{ provider_name: 'm', phone_number: '1', x: 2 }],
        y: 3,
      },
    };
    expect(validateResponse(ProviderList, body, 'providers', 200)).toEqual(body);
  });
});

describe('e-mail addresses', () => {
  test('are checked with zod’s own e-mail pattern', () => {
    expect(EMAIL_PATTERN.source).toBe(regexes.email.source);
    expect(EMAIL_PATTERN.flags).toBe(regexes.email.flags);
  });
});
