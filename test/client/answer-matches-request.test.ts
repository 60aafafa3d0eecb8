import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  createMemoryJournal,
  WalletClient,
  type WalletClientOptions,
  WalletOutcomeUnknownError,
  WalletPollTimeoutError,
  WalletResponseValidationError,
} from '../../src/index.js';
import { type LocalServer, startLocalServer } from '../helpers/http-server.js';

const TRANSPORTS: Record<string, WalletClientOptions> = {
  'node:http': {},
  fetch: { fetch: (input, init) => globalThis.fetch(input, init) },
};

/** What the server answers next, built from the request's parsed JSON body (or the path for GETs). */
let answerWith: (request: { path: string; body: Record<string, unknown> }) => unknown = () => ({});
let requests = 0;

async function serve(request: IncomingMessage, response: ServerResponse) {
  requests++;
  let text = '';
  for await (const chunk of request) text += chunk;
  const body = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify(answerWith({ path: request.url ?? '', body })));
}

let server: LocalServer;
beforeAll(async () => {
  server = await startLocalServer((request, response) => void serve(request, response));
});
afterAll(() => server.close());
beforeEach(() => {
  requests = 0;
  vi.spyOn(Math, 'random').mockReturnValue(0);
});

const deposit = { reference_id: 'order-1042', amount: 10.5, currency: 'KES' };
const withdrawal = { reference_id: 'payout-77', email: 'bob@example.com', amount: 120, currency: 'KES' };
/** An answer that repeats the request, as the service does, with `changes` on top. */
const echo =
  (changes: Record<string, unknown> = {}, status = 'completed') =>
  ({ body }: { body: Record<string, unknown> }) => ({
    transaction_id: 'txn_1',
    transaction_status: status,
    reference_id: body.reference_id,
    amount: body.amount,
    currency: body.currency,
    ...changes,
  });

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`resolved with ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

describe.each(Object.keys(TRANSPORTS))('over the %s transport', (transport) => {
  const client = (options: WalletClientOptions = {}) =>
    new WalletClient({ apiKey: 'sk_test_key', baseUrl: server.url, ...TRANSPORTS[transport], ...options });

  describe('a 2xx answer to a deposit or withdrawal must be about the payment sent', () => {
    test.each([
      ['reference_id', { reference_id: 'order-9999' }],
      ['amount', { amount: 1050 }],
      ['currency', { currency: 'USD' }],
    ])(
      'a deposit answered with another %s ends in WalletOutcomeUnknownError naming it',
      async (field, changes) => {
        answerWith = echo(changes);

        const error = await failureOf(client().deposit(deposit, { userToken: 'utk_1' }));

        expect(error).toBeInstanceOf(WalletOutcomeUnknownError);
        expect(error).toMatchObject({ referenceId: 'order-1042', endpoint: 'deposit', body: deposit });
        const cause = (error as Error).cause;
        expect(cause).toBeInstanceOf(WalletResponseValidationError);
        expect((cause as WalletResponseValidationError).issues.map((issue) => issue.path)).toEqual([field]);
        expect((cause as Error).message).toContain(field);
      },
    );

    test('a withdrawal answered about another payment names every mismatched field', async () => {
      answerWith = echo({ reference_id: 'payout-1', amount: 12, currency: 'UGX' });

      const error = await failureOf(client().withdraw(withdrawal));

      expect(error).toBeInstanceOf(WalletOutcomeUnknownError);
      expect(error).toMatchObject({ referenceId: 'payout-77', endpoint: 'withdraw' });
      const issues = ((error as Error).cause as WalletResponseValidationError).issues;
      expect(issues.map((issue) => issue.path)).toEqual(['reference_id', 'amount', 'currency']);
    });

    test('a withdrawal answered with a generated reference_id that differs is refused too', async () => {
      answerWith = echo({ reference_id: 'someone-else' });

      const error = await failureOf(
        client().withdraw({ email: 'bob@example.com', amount: 1, currency: 'KES' }),
      );

      expect(error).toBeInstanceOf(WalletOutcomeUnknownError);
      const sentReference = (error as WalletOutcomeUnknownError).body?.reference_id;
      expect((error as WalletOutcomeUnknownError).referenceId).toBe(sentReference);
    });

    test('an answer without reference_id is accepted for a withdrawal when amount and currency match', async () => {
      answerWith = echo({ reference_id: undefined });

      await expect(client().withdraw(withdrawal)).resolves.toMatchObject({
        transaction_id: 'txn_1',
        amount: 120,
      });
    });

    test('amounts compare numerically and currencies without regard to case', async () => {
      answerWith = ({ body }) => ({ ...echo({ currency: 'kes' })({ body }), amount: 10.5 });

      await expect(
        client().deposit({ ...deposit, amount: 10.5 }, { userToken: 'utk_1' }),
      ).resolves.toMatchObject({ amount: 10.5, currency: 'kes' });
      expect(requests).toBe(1);
    });

    test('a mismatched answer is recorded unknown in the payment journal, never applied', async () => {
      const journal = createMemoryJournal();
      answerWith = echo({ amount: 1 });

      const error = await failureOf(client({ journal }).deposit(deposit, { userToken: 'utk_1' }));

      expect(error).toBeInstanceOf(WalletOutcomeUnknownError);
      const intent = await journal.get('order-1042');
      expect(intent).toMatchObject({
        state: 'unknown',
        reason: expect.stringContaining('may have been applied'),
      });
      expect(intent?.transactionId).toBeUndefined();
    });

    test('resolveOutcome does not take a mismatched answer to the re-send as applied', async () => {
      answerWith = echo({ currency: 'USD' });
      const first = await failureOf(client().deposit(deposit, { userToken: 'utk_1' }));

      const second = await failureOf(
        client().resolveOutcome(first as WalletOutcomeUnknownError, { userToken: 'utk_1' }),
      );

      expect(second).toBeInstanceOf(WalletOutcomeUnknownError);
      expect((second as Error).cause).toBeInstanceOf(WalletResponseValidationError);
    });
  });

  describe('a status answer must be about the transaction requested', () => {
    const statusOf = (transactionId: string, status = 'completed') => ({
      transaction_id: transactionId,
      transaction_status: status,
      amount: '10.50',
      currency: 'KES',
      failure_reason: null,
    });

    test('getTransaction answered about another transaction throws WalletResponseValidationError', async () => {
      answerWith = () => statusOf('tx_B');

      const error = await failureOf(client({ maxRetries: 0 }).getTransaction('tx_A'));

      expect(error).toBeInstanceOf(WalletResponseValidationError);
      expect(error).toMatchObject({ endpoint: 'status', status: 200, body: statusOf('tx_B') });
      expect((error as WalletResponseValidationError).issues).toEqual([
        { path: 'transaction_id', message: 'does not match the request' },
      ]);
    });

    test('waitForTransaction never resolves with another transaction’s final status', async () => {
      answerWith = () => statusOf('tx_B');

      const error = await failureOf(
        client({ maxRetries: 0 }).waitForTransaction('tx_A', {
          timeoutMs: 200,
          initialDelayMs: 10,
          maxDelayMs: 20,
        }),
      );

      expect(error).toBeInstanceOf(WalletPollTimeoutError);
      expect(error).toMatchObject({ transactionId: 'tx_A', lastStatus: undefined });
      expect((error as Error).cause).toBeInstanceOf(WalletResponseValidationError);
      expect(requests).toBeGreaterThan(1);
    });

    test('waitForTransaction keeps polling past a wrong answer and resolves with the right one', async () => {
      let reads = 0;
      answerWith = () => (++reads === 1 ? statusOf('tx_B') : statusOf('tx_A', 'failed'));

      await expect(
        client().waitForTransaction('tx_A', { timeoutMs: 5_000, initialDelayMs: 10 }),
      ).resolves.toMatchObject({ transaction_id: 'tx_A', transaction_status: 'failed' });
      expect(reads).toBe(2);
    });

    test('watchTransaction never yields another transaction’s status', async () => {
      answerWith = () => statusOf('tx_B', 'pending');
      const seen: unknown[] = [];

      const error = await failureOf(
        (async () => {
          for await (const update of client({ maxRetries: 0 }).watchTransaction('tx_A', { timeoutMs: 200 })) {
            seen.push(update);
          }
        })(),
      );

      expect(seen).toEqual([]);
      expect(error).toBeInstanceOf(WalletPollTimeoutError);
    });

    test('reconcile reports an answer about another transaction as that id’s error', async () => {
      answerWith = ({ path }) => statusOf(path.endsWith('tx_A') ? 'tx_B' : 'tx_C');
      const rows = [];

      for await (const row of client({ maxRetries: 0 }).reconcile(['tx_A', 'tx_C'])) rows.push(row);

      const byId = Object.fromEntries(rows.map((row) => [row.transactionId, row]));
      expect(byId.tx_A?.error).toBeInstanceOf(WalletResponseValidationError);
      expect(byId.tx_C?.status).toMatchObject({ transaction_id: 'tx_C' });
    });
  });
});

describe('waitForTransaction with any reader', () => {
  test('a custom reader resolving with another transaction is never taken as final', async () => {
    const { waitForTransaction } = await import('../../src/index.js');
    const reader = {
      getTransaction: async () => ({
        transaction_id: 'tx_B',
        transaction_status: 'completed' as const,
        amount: '1',
        currency: 'KES',
      }),
    };

    const error = await failureOf(waitForTransaction(reader, 'tx_A', { timeoutMs: 100, initialDelayMs: 5 }));

    expect(error).toBeInstanceOf(WalletPollTimeoutError);
    expect((error as Error).cause).toBeInstanceOf(WalletResponseValidationError);
  });
});
