import { describe, expectTypeOf, test } from 'vitest';
import type {
  DepositResult,
  Journaled,
  SharedClientOptions,
  TransactionResult,
  WalletClient,
  WalletLogLevel,
  WalletRequestTrace,
  WithResponse,
} from '../../src/index.js';

declare const wallet: WalletClient;

describe('response metadata types', () => {
  test('await gives the data and withResponse gives the data with the response', () => {
    expectTypeOf(wallet.getTransaction('tx')).resolves.toEqualTypeOf<TransactionResult>();
    expectTypeOf(wallet.getTransaction('tx').withResponse()).resolves.toEqualTypeOf<
      WithResponse<TransactionResult>
    >();
    expectTypeOf(
      wallet.deposit({ reference_id: 'r', amount: 1, currency: 'KES' }, { userToken: 't' }).withResponse(),
    ).resolves.toEqualTypeOf<WithResponse<Journaled<DepositResult>>>();
  });

  test('the response names status, headers, request id, attempts and duration', () => {
    expectTypeOf<WithResponse<unknown>['response']>()
      .toHaveProperty('requestId')
      .toEqualTypeOf<string | undefined>();
    expectTypeOf<WithResponse<unknown>['response']>().toHaveProperty('attempts').toEqualTypeOf<number>();
    expectTypeOf<WithResponse<unknown>['response']>().toHaveProperty('durationMs').toEqualTypeOf<number>();
  });
});

describe('option types', () => {
  test('withOptions does not take the options that choose the transport', () => {
    expectTypeOf<SharedClientOptions>().not.toHaveProperty('fetch');
    expectTypeOf<SharedClientOptions>().toHaveProperty('maxRetries');
  });

  test('per-call options take maxRetries and headers', () => {
    expectTypeOf(wallet.getTransaction)
      .parameter(1)
      .toMatchTypeOf<
        { maxRetries?: number | undefined; headers?: Record<string, string> | undefined } | undefined
      >();
  });

  test('log levels are the five names', () => {
    expectTypeOf<WalletLogLevel>().toEqualTypeOf<'debug' | 'info' | 'warn' | 'error' | 'off'>();
  });

  test('a traced attempt has its outcome as the transport kind', () => {
    expectTypeOf<WalletRequestTrace['outcome']>().toEqualTypeOf<
      'response' | 'unreadable' | 'network' | 'timeout' | 'aborted' | undefined
    >();
  });
});
