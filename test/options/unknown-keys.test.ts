import { describe, expect, test, vi } from 'vitest';
import {
  reconcile,
  WalletClient,
  WalletConfigError,
  WalletRequestValidationError,
  waitForTransaction,
} from '../../src/index.js';

const reader = { getTransaction: vi.fn(() => Promise.reject(new Error('must not be called'))) };

function client(fetch = vi.fn()) {
  return new WalletClient({ apiKey: 'key', baseUrl: 'http://127.0.0.1:1', fetch });
}

async function rejection(promise: Promise<unknown>): Promise<WalletRequestValidationError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(WalletRequestValidationError);
  return error as WalletRequestValidationError;
}

describe('a misspelt option is refused, never silently ignored', () => {
  test('new WalletClient({ timeout: 5 }) throws WalletConfigError naming timeout', () => {
    const make = () =>
      new WalletClient({ apiKey: 'key', baseUrl: 'http://127.0.0.1:1', timeout: 5 } as never);

    expect(make).toThrow(WalletConfigError);
    expect(make).toThrow('Invalid WalletClient options: timeout: is not an option of WalletClient');
  });

  test('every unknown client option is named in one error', () => {
    let thrown: unknown;
    try {
      new WalletClient({ apiKey: 'key', baseUrl: 'http://127.0.0.1:1', timeout: 5, retries: 1 } as never);
    } catch (error) {
      thrown = error;
    }

    expect(thrown).toBeInstanceOf(WalletConfigError);
    expect((thrown as WalletConfigError).issues).toEqual([
      { path: 'timeout', message: 'is not an option of WalletClient' },
      { path: 'retries', message: 'is not an option of WalletClient' },
    ]);
  });

  test('an unknown per-call option is a WalletRequestValidationError and nothing is sent', async () => {
    const fetch = vi.fn();
    const error = await rejection(client(fetch).getTransaction('TX1', { timeout: 5 } as never));

    expect(error.issues).toEqual([{ path: 'options.timeout', message: 'is not a known option' }]);
    expect(fetch).not.toHaveBeenCalled();
  });

  test('an unknown poll option is named among every other problem', async () => {
    const error = await rejection(waitForTransaction(reader, 'TX1', { timeout: 5, maxDelayMs: -1 } as never));

    expect(error.issues.map((issue) => issue.path)).toEqual(
      expect.arrayContaining(['options.timeout', 'options.maxDelayMs']),
    );
    expect(reader.getTransaction).not.toHaveBeenCalled();
  });

  test('an unknown reconcile option is named and nothing is read', async () => {
    const error = await rejection(reconcile(reader, ['TX1'], { concurency: 2 } as never).next());

    expect(error.issues).toEqual([{ path: 'options.concurency', message: 'is not a known option' }]);
    expect(reader.getTransaction).not.toHaveBeenCalled();
  });
});
