import { describe, expect, test, vi } from 'vitest';
import {
  isWalletApiError,
  isWalletError,
  WalletApiError,
  WalletConfigError,
  WalletReauthorizationRequiredError,
} from '../src/index.js';

const apiError = (init: Partial<ConstructorParameters<typeof WalletApiError>[0]> = {}) =>
  new WalletApiError({
    code: 'insufficient_balance',
    message: 'Insufficient balance',
    status: 400,
    endpoint: 'withdraw',
    body: {},
    ...init,
  });

describe('isWalletApiError', () => {
  test('narrows an API error, and by its code', () => {
    expect(isWalletApiError(apiError())).toBe(true);
    expect(isWalletApiError(apiError(), 'insufficient_balance')).toBe(true);
    expect(isWalletApiError(apiError(), 'invalid_amount')).toBe(false);
  });

  test('holds for a subclass another layer defines, the re-authorization error, without naming it', () => {
    const refusal = apiError({ code: 'authorization_token_not_found', status: 401, endpoint: 'deposit' });
    const error = new WalletReauthorizationRequiredError({
      userEmail: 'ada@x.io',
      loginUrl: undefined,
      endpoint: 'deposit',
      refusal,
    });
    expect(isWalletApiError(error, 'authorization_token_not_found')).toBe(true);
    expect(error).toBeInstanceOf(WalletApiError);
  });

  test('is false for other SDK errors and for look-alikes that only copy the name', () => {
    expect(isWalletApiError(new WalletConfigError('apiKey', 'is required'))).toBe(false);
    const lookAlike = Object.assign(new Error('x'), { name: 'WalletApiError', code: 'insufficient_balance' });
    expect(isWalletApiError(lookAlike)).toBe(false);
  });

  test('holds for an API error of another copy of the module, as from the other build', async () => {
    vi.resetModules();
    const other = await import('../src/errors.js');
    expect(other.WalletApiError).not.toBe(WalletApiError);
    const foreign = new other.WalletApiError({
      code: 'insufficient_balance',
      message: 'Insufficient balance',
      status: 400,
      endpoint: 'withdraw',
      body: {},
    });
    expect(isWalletError(foreign)).toBe(true);
    expect(isWalletApiError(foreign, 'insufficient_balance')).toBe(true);
    expect(foreign).toBeInstanceOf(WalletApiError);
  });
});
