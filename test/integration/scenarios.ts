import type { Target, TransportName } from './harness.js';
import { TOKENS } from './harness.js';

/** One step of the success flow; steps run in order on a fresh default sandbox. */
export interface Scenario {
  readonly name: string;
  run(target: Target, transport: TransportName): Promise<unknown>;
  /** What `run` resolves to (or, for the last step, rejects with). */
  readonly expected: unknown;
}

const alice = { userToken: TOKENS.alice };
const bob = { userToken: TOKENS.bob };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The SDK's success paths for every endpoint, with what the default seed answers. */
export const SCENARIOS: readonly Scenario[] = [
  {
    name: 'listProviders gives the user providers and defaults',
    run: (t, tr) => t.client(tr).listProviders(bob),
    expected: {
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
  },
  {
    name: 'a deposit the wallet covers completes at once',
    run: (t, tr) =>
      t
        .client(tr)
        .deposit({ reference_id: 's-1', amount: 100, currency: 'KES', description: 'Order 1' }, alice),
    expected: {
      transaction_id: 'txn_000001',
      reference_id: 's-1',
      transaction_status: 'completed',
      amount: 100,
      currency: 'KES',
    },
  },
  {
    name: 'a deposit the wallet does not cover goes pending through the named provider',
    run: (t, tr) =>
      t
        .client(tr)
        .deposit({ reference_id: 's-2', amount: 900, currency: 'KES', payment_provider: 'mpesa' }, bob),
    expected: {
      transaction_id: 'txn_000002',
      reference_id: 's-2',
      transaction_status: 'pending',
      amount: 900,
      currency: 'KES',
    },
  },
  {
    name: 'getTransaction reads the pending deposit, amount as a string',
    run: (t, tr) => t.client(tr).getTransaction('txn_000002'),
    expected: {
      transaction_id: 'txn_000002',
      reference_id: 's-2',
      transaction_status: 'pending',
      amount: '900.00',
      currency: 'KES',
      failure_reason: null,
    },
  },
  {
    name: 'waitForTransaction resolves once the provider settles the deposit',
    run: (t, tr) => {
      const wait = t.client(tr).waitForTransaction('txn_000002', {
        initialDelayMs: 5,
        maxDelayMs: 20,
        timeoutMs: 5_000,
      });
      t.sandbox.settle('txn_000002', { status: 'completed' });
      return wait;
    },
    expected: {
      transaction_id: 'txn_000002',
      reference_id: 's-2',
      transaction_status: 'completed',
      amount: '900.00',
      currency: 'KES',
      failure_reason: null,
    },
  },
  {
    name: 'a declined provider deposit reads failed with its reason',
    run: async (t, tr) => {
      const wallet = t.client(tr);
      const pending = await wallet.deposit(
        { reference_id: 's-3', amount: 900, currency: 'KES', payment_provider: 'declinepay' },
        bob,
      );
      t.sandbox.settle(pending.transaction_id, { status: 'failed', failure_reason: 'card declined' });
      return wallet.getTransaction(pending.transaction_id);
    },
    expected: {
      transaction_id: 'txn_000003',
      reference_id: 's-3',
      transaction_status: 'failed',
      amount: '900.00',
      currency: 'KES',
      failure_reason: 'card declined',
    },
  },
  {
    name: 'a withdrawal completes within the request with date_completed',
    run: (t, tr) =>
      t.client(tr).withdraw({ email: 'alice@example.com', amount: 50, currency: 'KES', reference_id: 's-4' }),
    expected: {
      transaction_id: 'txn_000004',
      reference_id: 's-4',
      transaction_status: 'completed',
      amount: 50,
      currency: 'KES',
      date_completed: 20260304050607,
    },
  },
  {
    name: 'a withdrawal goes on to the named provider',
    run: (t, tr) =>
      t.client(tr).withdraw({
        email: 'bob@example.com',
        amount: 25.5,
        currency: 'KES',
        reference_id: 's-5',
        payment_provider: 'mpesa',
      }),
    expected: {
      transaction_id: 'txn_000005',
      reference_id: 's-5',
      transaction_status: 'completed',
      amount: 25.5,
      currency: 'KES',
      date_completed: 20260304050607,
    },
  },
  {
    name: 'a withdrawal without reference_id gets a generated UUID, sent and returned',
    run: async (t, tr) => {
      const result = await t.client(tr).withdraw({ email: 'alice@example.com', amount: 1, currency: 'KES' });
      const stored = t.sandbox.transaction(result.transaction_id)?.reference_id;
      return { generated: UUID.test(result.reference_id ?? ''), stored: stored === result.reference_id };
    },
    expected: { generated: true, stored: true },
  },
  {
    name: 'a transaction id with ../ stays one path segment',
    run: (t, tr) =>
      t
        .client(tr)
        .getTransaction('../status/txn_000001')
        .catch((error: { code?: string }) => error.code),
    expected: 'transaction_not_found',
  },
];
