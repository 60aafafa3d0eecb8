import { afterEach, beforeEach, vi } from 'vitest';
import { WalletApiError, WalletConnectionError } from '../../src/errors.js';
import type { RequestOptions } from '../../src/index.js';
import type { TransactionResult } from '../../src/schemas/responses.js';

export const ID = 'txn_c2b_001';

export function txn(status: string, extra: Partial<TransactionResult> = {}): TransactionResult {
  return {
    transaction_id: ID,
    reference_id: 'order-1042',
    transaction_status: status as TransactionResult['transaction_status'],
    amount: '250.00',
    currency: 'KES',
    failure_reason: status === 'failed' ? 'user cancelled' : null,
    ...extra,
  };
}

export function apiError(code: string, status: number) {
  return new WalletApiError({
    code: code as 'unknown_error',
    message: code,
    status,
    endpoint: 'status',
    body: {},
  });
}

export const connectionError = () =>
  new WalletConnectionError({ message: 'socket hang up', endpoint: 'status', attempts: 3 });

/** Each call answers with the next step; the last step repeats. `'hang'` never settles and ignores the signal. */
export function fakeClient(...steps: Array<TransactionResult | Error | 'hang'>) {
  const calls: Array<{ at: number; id: string; options: RequestOptions | undefined }> = [];
  let index = 0;
  return {
    calls,
    getTransaction(id: string, options?: RequestOptions): Promise<TransactionResult> {
      calls.push({ at: Date.now(), id, options });
      const step = steps[Math.min(index++, steps.length - 1)];
      if (step === 'hang' || step === undefined) return new Promise(() => {});
      return step instanceof Error ? Promise.reject(step) : Promise.resolve(step);
    },
  };
}

/** Settles `promise` into a value the test can inspect without an unhandled rejection in between. */
export function outcome<T>(promise: Promise<T>) {
  const state: { settled: boolean; value?: T; error?: unknown } = { settled: false };
  promise.then(
    (value) => Object.assign(state, { settled: true, value }),
    (error: unknown) => Object.assign(state, { settled: true, error }),
  );
  return state;
}

/** Fake timers for one describe block; real ones again afterwards. */
export function useFakeTimers(): void {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}
