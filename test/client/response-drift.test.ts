import { describe, expect, test } from 'vitest';
import {
  type WalletEndpoint,
  WalletOutcomeUnknownError,
  WalletResponseValidationError,
} from '../../src/index.js';
import {
  answer,
  depositResult,
  providerList,
  statusResult,
  useApiServer,
  withdrawResult,
} from '../helpers/api-server.js';
import { callEndpoint, rejectionOf } from '../helpers/error-fixtures.js';

const api = useApiServer();

const fixtures: Record<WalletEndpoint, Record<string, unknown>> = {
  deposit: depositResult,
  withdraw: withdrawResult,
  status: statusResult,
  providers: providerList,
};

/**
 * The validation error a drifted 2xx body gives. For deposits and withdrawals it arrives as the
 * cause of a `WalletOutcomeUnknownError`: their 2xx means the money moved, so it must not pass for a failure.
 */
async function driftError(endpoint: WalletEndpoint, body: unknown): Promise<WalletResponseValidationError> {
  api.use(answer(endpoint, 200, body));
  const rejection = await rejectionOf(callEndpoint(api.client(), endpoint));
  const movesMoney = endpoint === 'deposit' || endpoint === 'withdraw';
  if (movesMoney) {
    expect(rejection).toBeInstanceOf(WalletOutcomeUnknownError);
    expect(rejection).toMatchObject({ endpoint, attempts: 1 });
  }
  const error = movesMoney ? (rejection as Error).cause : rejection;
  expect(error).toBeInstanceOf(WalletResponseValidationError);
  expect(error).toMatchObject({ endpoint, status: 200 });
  return error as WalletResponseValidationError;
}

function without(record: Record<string, unknown>, key: string): Record<string, unknown> {
  const { [key]: _dropped, ...rest } = record;
  return rest;
}

describe('unknown extra fields are kept', () => {
  test.each(['deposit', 'withdraw', 'status'] as const)(
    'an extra top-level field in the %s result is returned as sent',
    async (endpoint) => {
      const body = {
        ...fixtures[endpoint],
        settled_at: '2026-11-21T14:30:05Z',
        fees: { amount: 2.5, currency: 'KES' },
      };
      api.use(answer(endpoint, 200, body));

      await expect(callEndpoint(api.client(), endpoint)).resolves.toEqual(body);
    },
  );

  test('extra fields at every level of the provider listing are returned as sent', async () => {
    const body = {
      ...providerList,
      user_tier: 'gold',
      payment_providers: {
        ...providerList.payment_providers,
        bank_providers: [{ bank_name: 'Example Bank', account: '0001' }],
        mobile_payment_providers: [
          {
            provider_name: 'mpesa',
            phone_number: '+254700000001',
            is_default: true,
            limits: { daily: 150000 },
          },
        ],
      },
    };
    api.use(answer('providers', 200, body));

    await expect(callEndpoint(api.client(), 'providers')).resolves.toEqual(body);
  });

  test('a status result without reference_id and with failure_reason null is accepted, as documented', async () => {
    const body = {
      ...without(statusResult, 'reference_id'),
      transaction_status: 'pending',
      failure_reason: null,
    };
    api.use(answer('status', 200, body));

    await expect(callEndpoint(api.client(), 'status')).resolves.toEqual(body);
  });
});

describe('a documented field of the wrong type is rejected with its path and the raw body', () => {
  test.each([
    ['deposit', 'amount', { ...depositResult, amount: '250' }],
    ['deposit', 'transaction_id', { ...depositResult, transaction_id: 1001 }],
    ['withdraw', 'amount', { ...withdrawResult, amount: null }],
    ['withdraw', 'date_completed', { ...withdrawResult, date_completed: '20261121143005' }],
    ['withdraw', 'date_completed', { ...withdrawResult, date_completed: 20261121143005.5 }],
    ['status', 'amount', { ...statusResult, amount: 250 }],
    ['status', 'failure_reason', { ...statusResult, failure_reason: 42 }],
    ['status', 'currency', { ...statusResult, currency: ['KES'] }],
    ['providers', 'default_deposit_provider', { ...providerList, default_deposit_provider: 7 }],
    [
      'providers',
      'payment_providers.mobile_payment_providers',
      { ...providerList, payment_providers: { mobile_payment_providers: {} } },
    ],
  ] as const)(
    'a %s result with a bad %s is rejected naming it and keeping the raw body',
    async (endpoint, field, body) => {
      const error = await driftError(endpoint, body);

      expect(error.issues.map((issue) => issue.path)).toContain(field);
      expect(error.message).toContain(field);
      expect(error.body).toEqual(body);
    },
  );

  test('a nested provider field of the wrong type is named by its full dotted path', async () => {
    const body = {
      ...providerList,
      payment_providers: {
        mobile_payment_providers: [
          { provider_name: 'mpesa', phone_number: '+254700000001' },
          { provider_name: 'airtel', phone_number: 254730000002 },
        ],
      },
    };

    const error = await driftError('providers', body);

    expect(error.issues.map((issue) => issue.path)).toEqual([
      'payment_providers.mobile_payment_providers.1.phone_number',
    ]);
    expect(error.body).toEqual(body);
  });
});

describe('a missing documented field is rejected', () => {
  test.each([
    ['deposit', 'transaction_id'],
    ['deposit', 'reference_id'],
    ['withdraw', 'transaction_status'],
    ['withdraw', 'currency'],
    ['status', 'amount'],
    ['status', 'transaction_status'],
    ['providers', 'default_withdraw_provider'],
    ['providers', 'payment_providers'],
  ] as const)(
    'a %s result without %s is rejected naming it and keeping the raw body',
    async (endpoint, field) => {
      const body = without(fixtures[endpoint], field);

      const error = await driftError(endpoint, body);

      expect(error.issues.map((issue) => issue.path)).toContain(field);
      expect(error.message).toContain(field);
      expect(error.body).toEqual(body);
    },
  );

  test('a provider entry without phone_number is rejected with its index in the path', async () => {
    const body = {
      ...providerList,
      payment_providers: { mobile_payment_providers: [{ provider_name: 'mpesa' }] },
    };

    const error = await driftError('providers', body);

    expect(error.issues.map((issue) => issue.path)).toEqual([
      'payment_providers.mobile_payment_providers.0.phone_number',
    ]);
  });
});

describe('an undocumented transaction_status is never taken for success', () => {
  test.each([
    ['status', 'settled'],
    ['status', 'COMPLETED'],
    ['deposit', 'success'],
    ['withdraw', 'done'],
  ] as const)('%s answering transaction_status %j is rejected', async (endpoint, value) => {
    const body = { ...fixtures[endpoint], transaction_status: value };

    const error = await driftError(endpoint, body);

    expect(error.issues.map((issue) => issue.path)).toEqual(['transaction_status']);
    expect(error.message).toContain('transaction_status');
    expect(error.body).toEqual(body);
  });
});

describe('a 2xx body that is not a JSON object is rejected', () => {
  test.each(['status', 'deposit'] as const)(
    'a non-JSON 200 body from %s is rejected and kept as text',
    async (endpoint) => {
      const error = await driftError(endpoint, '<html>OK</html>');

      expect(error.issues).toEqual([{ path: '', message: 'body is not valid JSON' }]);
      expect(error.body).toBe('<html>OK</html>');
      expect(api.seen).toHaveLength(1);
    },
  );

  test.each(['providers', 'withdraw'] as const)('an empty 200 body from %s is rejected', async (endpoint) => {
    const error = await driftError(endpoint, '');

    expect(error.issues).toEqual([{ path: '', message: 'body is empty' }]);
    expect(error.body).toBe('');
  });

  test.each([
    ['null', null],
    ['an array', [statusResult]],
    ['a number', 42],
  ])('a JSON 200 body that is %s is rejected', async (_label, body) => {
    api.use(answer('status', 200, JSON.stringify(body), { 'content-type': 'application/json' }));

    const error = await rejectionOf(callEndpoint(api.client(), 'status'));

    expect(error).toBeInstanceOf(WalletResponseValidationError);
    expect((error as WalletResponseValidationError).body).toEqual(body);
  });
});
