import { HttpResponse } from 'msw';
import { describe, expect, test, vi } from 'vitest';
import {
  WalletApiError,
  WalletRequestValidationError,
  WalletResponseValidationError,
  WalletTimeoutError,
} from '../../src/errors.js';
import { WalletPollTimeoutError } from '../../src/polling/errors.js';
import { waitForTransaction } from '../../src/polling/poll.js';
import type { TransactionResult } from '../../src/schemas/responses.js';
import { answerInTurn, useApiServer } from '../helpers/api-server.js';
import {
  apiError,
  connectionError,
  fakeClient,
  ID,
  outcome,
  txn,
  useFakeTimers,
} from '../helpers/poll-fakes.js';

describe('which read errors are retried', () => {
  useFakeTimers();

  test.each([
    ['a connection error', connectionError()],
    ['a timeout', new WalletTimeoutError({ endpoint: 'status', attempts: 3, timeoutMs: 30_000 })],
    ['HTTP 503', apiError('unknown_error', 503)],
    ['internal_server_error', apiError('internal_server_error', 500)],
    ['HTTP 429', apiError('unknown_error', 429)],
  ])('retries after %s and resolves once the status is final', async (_, error) => {
    const client = fakeClient(error, error, txn('completed'));

    const result = outcome(waitForTransaction(client, ID, { initialDelayMs: 100 }));
    await vi.advanceTimersByTimeAsync(1_000);

    expect(result.value?.transaction_status).toBe('completed');
    expect(client.calls).toHaveLength(3);
  });

  test('the poll timeout carries the last error as cause', async () => {
    const error = connectionError();
    const client = fakeClient(txn('pending'), error);

    const result = outcome(waitForTransaction(client, ID, { timeoutMs: 5_000, initialDelayMs: 100 }));
    await vi.advanceTimersByTimeAsync(5_000);

    expect(result.error).toBeInstanceOf(WalletPollTimeoutError);
    expect((result.error as WalletPollTimeoutError).lastStatus).toBe('pending');
    expect((result.error as WalletPollTimeoutError).cause).toBe(error);
  });

  test('a status this SDK does not know is polled on and reported as the last status', async () => {
    const drift = new WalletResponseValidationError({
      issues: [{ path: 'transaction_status', message: 'must be one of "pending", "completed", "failed"' }],
      endpoint: 'status',
      status: 200,
      body: { ...txn('pending'), transaction_status: 'processing' },
    });
    const client = fakeClient(drift);

    const result = outcome(waitForTransaction(client, ID, { timeoutMs: 2_000, initialDelayMs: 100 }));
    await vi.advanceTimersByTimeAsync(2_000);

    expect(client.calls.length).toBeGreaterThan(2);
    expect((result.error as WalletPollTimeoutError).lastStatus).toBe('processing');
    expect((result.error as WalletPollTimeoutError).cause).toBe(drift);
  });

  test('transaction_not_found within the grace period is retried until the transaction appears', async () => {
    const client = fakeClient(
      apiError('transaction_not_found', 404),
      apiError('transaction_not_found', 404),
      txn('completed'),
    );

    const result = outcome(waitForTransaction(client, ID, { notFoundGraceMs: 5_000, initialDelayMs: 100 }));
    await vi.advanceTimersByTimeAsync(1_000);

    expect(result.value?.transaction_status).toBe('completed');
  });

  test('transaction_not_found after the grace period rejects with that WalletApiError', async () => {
    const notFound = apiError('transaction_not_found', 404);
    const client = fakeClient(notFound);

    const result = outcome(waitForTransaction(client, ID, { notFoundGraceMs: 2_000, initialDelayMs: 500 }));
    await vi.advanceTimersByTimeAsync(10_000);

    expect(result.error).toBe(notFound);
    const lastCall = client.calls.at(-1)?.at ?? 0;
    expect(lastCall - (client.calls[0]?.at ?? 0)).toBeGreaterThanOrEqual(2_000);
    expect(vi.getTimerCount()).toBe(0);
  });

  test.each([
    ['transaction_access_forbidden', 403],
    ['invalid_api_key', 401],
    ['missing_api_key', 401],
    ['unknown_error', 400],
  ])('%s stops the wait at once with that error', async (code, status) => {
    const error = apiError(code, status);
    const client = fakeClient(error, txn('completed'));

    const result = outcome(waitForTransaction(client, ID));
    await vi.advanceTimersByTimeAsync(60_000);

    expect(result.error).toBe(error);
    expect(client.calls).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  test('an error that is not a WalletError is passed through at once', async () => {
    const bug = new TypeError('client exploded');
    const client = {
      getTransaction(): Promise<TransactionResult> {
        throw bug;
      },
    };

    await expect(waitForTransaction(client, ID)).rejects.toBe(bug);
  });
});

describe('argument checks', () => {
  const client = fakeClient(txn('completed'));

  test.each([
    ['an empty id', '', {}, 'transactionId'],
    ['a blank id', '   ', {}, 'transactionId'],
    ['a non-string id', 42, {}, 'transactionId'],
    ['non-object options', ID, 'fast', 'options'],
    ['a negative initialDelayMs', ID, { initialDelayMs: -1 }, 'options.initialDelayMs'],
    [
      'maxDelayMs below initialDelayMs',
      ID,
      { initialDelayMs: 5_000, maxDelayMs: 1_000 },
      'options.maxDelayMs',
    ],
    ['a NaN timeoutMs', ID, { timeoutMs: Number.NaN }, 'options.timeoutMs'],
    ['a timeoutMs beyond what a timer can hold', ID, { timeoutMs: 2 ** 31 }, 'options.timeoutMs'],
    ['a negative notFoundGraceMs', ID, { notFoundGraceMs: -5 }, 'options.notFoundGraceMs'],
    ['a zero requestTimeoutMs', ID, { requestTimeoutMs: 0 }, 'options.requestTimeoutMs'],
    ['a signal that is not an AbortSignal', ID, { signal: { aborted: false } }, 'options.signal'],
    ['an onStatus that is not a function', ID, { onStatus: 'log' }, 'options.onStatus'],
  ])(
    '%s is a rejected WalletRequestValidationError naming it, never a synchronous throw',
    async (_, id, options, path) => {
      let promise: Promise<unknown> | undefined;
      expect(() => {
        promise = waitForTransaction(client, id as string, options as never);
      }).not.toThrow();

      const error = await promise?.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WalletRequestValidationError);
      expect((error as WalletRequestValidationError).issues.map((issue) => issue.path)).toContain(path);
    },
  );

  test('a client without getTransaction is rejected, naming it', async () => {
    const error = await waitForTransaction({} as never, ID).catch((e: unknown) => e);
    expect((error as WalletRequestValidationError).issues).toEqual([
      { path: 'client', message: 'must have a getTransaction method' },
    ]);
  });

  test('nothing is requested when an argument is bad', async () => {
    const spy = fakeClient(txn('completed'));
    await waitForTransaction(spy, ID, { maxDelayMs: -1 }).catch(() => {});
    expect(spy.calls).toHaveLength(0);
  });
});

describe('against the HTTP API (msw)', () => {
  const api = useApiServer();
  const statusBody = (status: string) => ({ ...txn(status), transaction_id: ID });

  test('retries a 503 and an early transaction_not_found, then resolves with the completed status', async () => {
    api.use(
      answerInTurn(
        'status',
        () =>
          HttpResponse.json(
            { code: 'internal_server_error', message: 'internal server error' },
            { status: 503 },
          ),
        () =>
          HttpResponse.json(
            { code: 'transaction_not_found', message: 'transaction not found' },
            { status: 404 },
          ),
        () => HttpResponse.json(statusBody('pending')),
        () => HttpResponse.json(statusBody('completed')),
      ),
    );
    const wallet = api.client({ maxRetries: 0 });
    const onStatus = vi.fn();

    const result = await waitForTransaction(wallet, ID, { initialDelayMs: 5, maxDelayMs: 20, onStatus });

    expect(result.transaction_status).toBe('completed');
    expect(api.seen).toHaveLength(4);
    expect(api.seen[0]?.url).toBe(`https://api.wallet.test/merchants/transactions/status/${ID}`);
    expect(onStatus).toHaveBeenCalledTimes(2);
  });

  test('transaction_access_forbidden from the API stops after one request', async () => {
    api.use(
      answerInTurn('status', () =>
        HttpResponse.json(
          {
            code: 'transaction_access_forbidden',
            message: 'you are not allowed to view the status of this transaction',
          },
          { status: 403 },
        ),
      ),
    );

    const error = await waitForTransaction(api.client(), ID, { initialDelayMs: 5 }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(WalletApiError);
    expect((error as WalletApiError).code).toBe('transaction_access_forbidden');
    expect(api.seen).toHaveLength(1);
  });
});
