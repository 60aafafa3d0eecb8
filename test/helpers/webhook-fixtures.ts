import { expect } from 'vitest';
import type { TransactionResult } from '../../src/schemas/responses.js';

/** The user token a `user_authorized` fixture carries: a secret, which tests check never leaks. */
export const WEBHOOK_TOKEN = 'tok_live_7f3a9c-SECRET';

/** A `user_authorized` webhook body for ada@example.com. */
export const userAuthorizedBody = {
  event: 'user_authorized',
  user_email: 'ada@example.com',
  token: WEBHOOK_TOKEN,
};

/** A transaction webhook body: deposit `tx_1` (reference `order-42`) completed, amount as a number. */
export const completedBody = {
  event: 'transaction',
  transaction_id: 'tx_1',
  reference_id: 'order-42',
  transaction_status: 'completed',
  amount: 100,
  currency: 'KES',
};

/** The status endpoint's answer for `tx_1` that agrees with {@link completedBody}, changed by `overrides`. */
export function statusOf(overrides: Partial<TransactionResult> = {}): TransactionResult {
  return {
    transaction_id: 'tx_1',
    reference_id: 'order-42',
    transaction_status: 'completed',
    amount: '100.00',
    currency: 'KES',
    failure_reason: null,
    ...overrides,
  };
}

/** What `onError` gets for an event that disagrees with the status read back in `fields`. */
export function notConfirmedError(...fields: string[]) {
  return expect.objectContaining({
    name: 'WalletWebhookError',
    reason: 'not_confirmed',
    issues: fields.map((path) => ({ path, message: 'differs from the status endpoint' })),
  });
}

/** A webhook delivery to the shop's endpoint: `body` as is when it is a string, else as JSON. */
export function post(body: unknown, init: RequestInit = {}): Request {
  return new Request('https://shop.example.com/hook', {
    method: 'POST',
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  });
}
