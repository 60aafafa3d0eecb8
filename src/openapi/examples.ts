import type { DepositRequest, WithdrawRequest } from '../schemas/requests.js';
import type { DepositResult, ProviderList, TransactionResult, WithdrawResult } from '../schemas/responses.js';
import type { TransactionWebhook, UserAuthorizedWebhook } from '../schemas/webhook.js';

// One story on the sandbox's default seed, in order: what the sandbox answers to these requests
// (test/openapi/examples.test.ts replays them against a fresh sandbox), typed by the SDK's own types.

/** The sandbox's seeded credentials the examples use. */
export const EXAMPLE_CREDENTIALS = {
  apiKey: 'sk_sandbox_demo_shop',
  aliceToken: 'tok_sandbox_alice',
  bobToken: 'tok_sandbox_bob',
} as const;

/** The time the examples' sandbox reads, which `date_completed` shows. */
export const EXAMPLE_NOW = '2026-03-04T05:06:07Z';

/** A deposit alice's wallet covers, with alice's token: completed at once. */
export const depositCovered = {
  request: { reference_id: 'order-1001', amount: 100, currency: 'KES', description: 'Order 1001' },
  response: {
    transaction_id: 'txn_000001',
    reference_id: 'order-1001',
    transaction_status: 'completed',
    amount: 100,
    currency: 'KES',
  },
} as const satisfies { request: DepositRequest; response: DepositResult };

/** A deposit bob's wallet does not cover, through his mpesa account: pending. */
export const depositPending = {
  request: { reference_id: 'order-1002', amount: 900, currency: 'KES', payment_provider: 'mpesa' },
  response: {
    transaction_id: 'txn_000002',
    reference_id: 'order-1002',
    transaction_status: 'pending',
    amount: 900,
    currency: 'KES',
  },
} as const satisfies { request: DepositRequest; response: DepositResult };

/** A withdrawal to alice's wallet. */
export const withdrawal = {
  request: { email: 'alice@example.com', amount: 50, currency: 'KES', reference_id: 'payout-2001' },
  response: {
    transaction_id: 'txn_000003',
    reference_id: 'payout-2001',
    transaction_status: 'completed',
    amount: 50,
    currency: 'KES',
    date_completed: 20260304050607,
  },
} as const satisfies { request: WithdrawRequest; response: WithdrawResult };

/** The status of the first deposit. */
export const statusCompleted = {
  transactionId: 'txn_000001',
  response: {
    transaction_id: 'txn_000001',
    reference_id: 'order-1001',
    transaction_status: 'completed',
    amount: '100.00',
    currency: 'KES',
    failure_reason: null,
  },
} as const satisfies { transactionId: string; response: TransactionResult };

/** The status of the pending deposit. */
export const statusPending = {
  transactionId: 'txn_000002',
  response: {
    transaction_id: 'txn_000002',
    reference_id: 'order-1002',
    transaction_status: 'pending',
    amount: '900.00',
    currency: 'KES',
    failure_reason: null,
  },
} as const satisfies { transactionId: string; response: TransactionResult };

/** Bob's providers, with bob's token. */
export const bobProviders = {
  response: {
    default_deposit_provider: 'mpesa',
    default_withdraw_provider: 'airtel',
    payment_providers: {
      mobile_payment_providers: [
        { provider_name: 'mpesa', phone_number: '+254700000002' },
        { provider_name: 'airtel', phone_number: '+256700000002' },
        { provider_name: 'flakypay', phone_number: '+254700000003' },
        { provider_name: 'declinepay', phone_number: '+254700000004' },
      ],
    },
  },
} as const satisfies { response: ProviderList };

/** The `user_authorized` webhook after alice approves the demo shop. */
export const userAuthorizedExample = {
  event: 'user_authorized',
  user_email: 'alice@example.com',
  token: 'tok_4nq2Vx0c8ZbLrW7s',
} as const satisfies UserAuthorizedWebhook;

/** The result webhook of the pending deposit, once the provider completed it. */
export const transactionResultExample = {
  event: 'transaction',
  transaction_id: 'txn_000002',
  reference_id: 'order-1002',
  transaction_status: 'completed',
  amount: 900,
  currency: 'KES',
} as const satisfies TransactionWebhook;
