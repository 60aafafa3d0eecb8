import { HttpResponse } from 'msw';
import { expect, test } from 'vitest';
import { answerInTurn, statusResult, useApiServer } from '../helpers/api-server.js';

const api = useApiServer();
const status =
  (transaction_status: string, transaction_id = statusResult.transaction_id) =>
  () =>
    HttpResponse.json({ ...statusResult, transaction_id, transaction_status });

test('wallet.waitForTransaction polls this client until the status is final', async () => {
  api.use(answerInTurn('status', status('pending'), status('completed')));

  const final = await api.client().waitForTransaction('txn_c2b_001', { initialDelayMs: 1, maxDelayMs: 1 });

  expect(final.transaction_status).toBe('completed');
  expect(api.seen).toHaveLength(2);
});

test('wallet.watchTransaction yields each distinct status through this client', async () => {
  api.use(answerInTurn('status', status('pending'), status('pending'), status('failed')));
  const seen: string[] = [];

  for await (const update of api
    .client()
    .watchTransaction('txn_c2b_001', { initialDelayMs: 1, maxDelayMs: 1 })) {
    seen.push(update.transaction_status);
  }

  expect(seen).toEqual(['pending', 'failed']);
});

test('wallet.reconcile reads every id through this client and reports each', async () => {
  api.use(answerInTurn('status', status('completed', 'txn_a'), status('completed', 'txn_b')));
  const rows = [];

  for await (const row of api.client().reconcile(['txn_a', 'txn_b'], { concurrency: 1 })) rows.push(row);

  expect(rows.map((row) => row.status?.transaction_status)).toEqual(['completed', 'completed']);
  expect(api.seen.map((request) => new URL(request.url).pathname.split('/').pop()).sort()).toEqual([
    'txn_a',
    'txn_b',
  ]);
});
