import { expect, test } from 'vitest';
import { WalletClient } from '../../../src/index.js';
import {
  bobProviders,
  depositCovered,
  EXAMPLE_CREDENTIALS,
  statusCompleted,
  withdrawal,
} from '../../../src/openapi/examples.js';

// Run by scripts/openapi-prism.ts with Prism's mock of openapi/openapi.json: a server this project
// did not write, answering from the document's examples. The client's own checks (the answer is about
// this payment, the status is of this transaction) run on every answer.
const mockUrl = process.env.MW_PRISM_MOCK_URL;
if (mockUrl === undefined) throw new Error('run through npm run test:contract, which starts the mock');

const wallet = new WalletClient({ apiKey: EXAMPLE_CREDENTIALS.apiKey, baseUrl: mockUrl, maxRetries: 0 });
const userToken = EXAMPLE_CREDENTIALS.aliceToken;

test('a deposit against the mock resolves with the documented result', async () => {
  expect(await wallet.deposit(depositCovered.request, { userToken })).toEqual(depositCovered.response);
});

test('a withdrawal against the mock resolves with the documented result', async () => {
  expect(await wallet.withdraw(withdrawal.request)).toEqual(withdrawal.response);
});

test('a status lookup against the mock resolves with the documented transaction', async () => {
  expect(await wallet.getTransaction(statusCompleted.transactionId)).toEqual(statusCompleted.response);
});

test('waitForTransaction against the mock resolves with the final status', async () => {
  const final = await wallet.waitForTransaction(statusCompleted.transactionId, { timeoutMs: 5_000 });
  expect(final.transaction_status).toBe('completed');
});

test('listing providers against the mock resolves with the documented list', async () => {
  expect(await wallet.listProviders({ userToken })).toEqual(bobProviders.response);
});

test('the mock refuses a deposit without the user token, and the client reports a 401 WalletApiError', async () => {
  const noUser = new WalletClient({
    apiKey: EXAMPLE_CREDENTIALS.apiKey,
    baseUrl: mockUrl,
    maxRetries: 0,
    fetch: async (input, init) => {
      const headers = new Headers(init?.headers);
      headers.delete('authorization');
      return fetch(input, { ...init, headers });
    },
  });
  await expect(noUser.deposit(depositCovered.request, { userToken })).rejects.toMatchObject({
    name: 'WalletApiError',
    status: 401,
  });
});
