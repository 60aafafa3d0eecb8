import { describe, expectTypeOf, test } from 'vitest';
import {
  type DepositErrorCode,
  type DepositRequest,
  isWalletApiError,
  type ProvidersErrorCode,
  type StatusErrorCode,
  type WalletApiError,
  type WalletApiErrorCode,
  type WalletClient,
  type WalletErrorCode,
  type WithdrawErrorCode,
  type WithdrawRequest,
} from '../../src/index.js';

declare const client: WalletClient;
declare const caught: unknown;

/** The keys a type requires. */
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];

describe('WalletErrorCode', () => {
  test('an exhaustive switch over the 22 codes compiles, and one missing a case does not', () => {
    function spokenName(code: WalletErrorCode): string {
      switch (code) {
        case 'missing_api_key':
        case 'invalid_api_key':
          return 'credentials';
        case 'authorization_token_not_found':
        case 'application_not_authorized':
          return 'user authorization';
        case 'invalid_currency':
        case 'invalid_webhook_url':
        case 'invalid_amount':
        case 'invalid_email':
        case 'invalid_provider_name':
          return 'bad request';
        case 'user_not_active':
        case 'user_balance_not_found':
        case 'user_not_found':
          return 'user';
        case 'merchant_not_active':
        case 'merchant_balance_not_found':
          return 'merchant';
        case 'insufficient_balance':
          return 'balance';
        case 'provider_not_found':
        case 'psp_currency_balance_not_found':
        case 'psp_error':
          return 'provider';
        case 'reference_already_used':
          return 'duplicate';
        case 'transaction_not_found':
        case 'transaction_access_forbidden':
          return 'lookup';
        case 'internal_server_error':
          return 'server';
        default: {
          const unreachable: never = code;
          return unreachable;
        }
      }
    }

    function missingOneCase(code: WalletErrorCode): string {
      switch (code) {
        case 'missing_api_key':
        case 'invalid_api_key':
        case 'authorization_token_not_found':
        case 'application_not_authorized':
        case 'invalid_currency':
        case 'invalid_webhook_url':
        case 'user_not_active':
        case 'user_balance_not_found':
        case 'merchant_not_active':
        case 'merchant_balance_not_found':
        case 'invalid_amount':
        case 'insufficient_balance':
        case 'provider_not_found':
        case 'psp_currency_balance_not_found':
        case 'invalid_provider_name':
        case 'psp_error':
        case 'reference_already_used':
        case 'invalid_email':
        case 'user_not_found':
        case 'transaction_not_found':
        case 'transaction_access_forbidden':
          return 'known';
        default: {
          // @ts-expect-error internal_server_error is left, so the switch is not exhaustive
          const unreachable: never = code;
          return unreachable;
        }
      }
    }

    expectTypeOf(spokenName).parameter(0).toEqualTypeOf<WalletErrorCode>();
    expectTypeOf(missingOneCase).returns.toEqualTypeOf<string>();
  });

  test('a WalletApiError code is a documented code or unknown_error', () => {
    expectTypeOf<WalletApiErrorCode>().toEqualTypeOf<WalletErrorCode | 'unknown_error'>();
    expectTypeOf<WalletApiError['code']>().toEqualTypeOf<WalletApiErrorCode>();
    expectTypeOf<'unknown_error'>().not.toExtend<WalletErrorCode>();
  });
});

describe('isWalletApiError', () => {
  test("isWalletApiError(e, 'insufficient_balance') narrows e.code to that literal", () => {
    if (isWalletApiError(caught, 'insufficient_balance')) {
      expectTypeOf(caught.code).toEqualTypeOf<'insufficient_balance'>();
      expectTypeOf(caught.status).toEqualTypeOf<number>();
    }
  });

  test('isWalletApiError(e) narrows to any API error', () => {
    if (isWalletApiError(caught)) {
      expectTypeOf(caught.code).toEqualTypeOf<WalletApiErrorCode>();
    }
  });

  test('an undocumented code is refused at compile time', () => {
    // @ts-expect-error 'teapot' is not a WalletApiErrorCode
    isWalletApiError(caught, 'teapot');
  });
});

describe('per-endpoint code unions come from the spec table', () => {
  test('DepositErrorCode includes psp_error but not invalid_email', () => {
    expectTypeOf<'psp_error'>().toExtend<DepositErrorCode>();
    expectTypeOf<'invalid_webhook_url'>().toExtend<DepositErrorCode>();
    expectTypeOf<'invalid_email'>().not.toExtend<DepositErrorCode>();
    expectTypeOf<'transaction_not_found'>().not.toExtend<DepositErrorCode>();
  });

  test('WithdrawErrorCode includes invalid_email but not the deposit-only codes', () => {
    expectTypeOf<'invalid_email'>().toExtend<WithdrawErrorCode>();
    expectTypeOf<'user_not_found'>().toExtend<WithdrawErrorCode>();
    expectTypeOf<'psp_error'>().not.toExtend<WithdrawErrorCode>();
    expectTypeOf<'authorization_token_not_found'>().not.toExtend<WithdrawErrorCode>();
  });

  test('StatusErrorCode is exactly its five codes', () => {
    expectTypeOf<StatusErrorCode>().toEqualTypeOf<
      | 'missing_api_key'
      | 'invalid_api_key'
      | 'transaction_not_found'
      | 'transaction_access_forbidden'
      | 'internal_server_error'
    >();
  });

  test('ProvidersErrorCode is exactly its five codes', () => {
    expectTypeOf<ProvidersErrorCode>().toEqualTypeOf<
      | 'missing_api_key'
      | 'invalid_api_key'
      | 'authorization_token_not_found'
      | 'application_not_authorized'
      | 'internal_server_error'
    >();
  });
});

describe('request types are inferred from the schemas', () => {
  test('DepositRequest requires reference_id, amount and currency', () => {
    expectTypeOf<RequiredKeys<DepositRequest>>().toEqualTypeOf<'reference_id' | 'amount' | 'currency'>();
    expectTypeOf<DepositRequest['amount']>().toEqualTypeOf<number>();
    expectTypeOf<{ amount: number; currency: string }>().not.toExtend<DepositRequest>();
  });

  test('WithdrawRequest requires email, amount and currency', () => {
    expectTypeOf<RequiredKeys<WithdrawRequest>>().toEqualTypeOf<'email' | 'amount' | 'currency'>();
  });

  test('withdraw rejects an unknown field at the type level', () => {
    // @ts-expect-error ammount is not a field of WithdrawRequest
    client.withdraw({ email: 'ada@example.com', ammount: 5, amount: 5, currency: 'KES' });
  });

  test('deposit requires a userToken', () => {
    // @ts-expect-error the options with userToken are required
    client.deposit({ reference_id: 'order-1', amount: 5, currency: 'KES' });
    // @ts-expect-error userToken is required in the options
    client.deposit({ reference_id: 'order-1', amount: 5, currency: 'KES' }, {});
    // @ts-expect-error listProviders needs the user's token too
    client.listProviders({});
  });

  test('method results keep the wire types', () => {
    expectTypeOf(client.getTransaction).returns.resolves.toHaveProperty('amount').toEqualTypeOf<string>();
    expectTypeOf(client.withdraw).returns.resolves.toHaveProperty('amount').toEqualTypeOf<number>();
    expectTypeOf(client.deposit)
      .returns.resolves.toHaveProperty('transaction_status')
      .toEqualTypeOf<'pending' | 'completed' | 'failed'>();
  });
});
