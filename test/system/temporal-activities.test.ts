import { MockActivityEnvironment } from '@temporalio/testing';
import { beforeEach, describe, expect, test, vi } from 'vitest';
import { createPaymentActivities, WORKFLOW_KEY } from '../../examples/temporal/activities.js';
import type { Order, PaymentAnswer } from '../../examples/temporal/types.js';
import { type DeliverSettlement, temporalWebhookHandler } from '../../examples/temporal/webhook.js';
import { createMemoryJournal, type PaymentJournal, WalletClient } from '../../src/index.js';
import { DURABLE_API_KEY, tokenOfEmail } from './durable/payers.js';
import { useSandboxServer } from './sandbox-server.js';

// The recipe imports the package by its name, as a merchant's code does; here that name is the source.
vi.mock('merchant-wallet', () => import('../../src/index.js'));
vi.mock('merchant-wallet/webhooks', () => import('../../src/webhooks/index.js'));

// No Temporal server can be run here (the test server and CLI are downloaded at run time, from
// outside the npm registry): the activities run in Temporal's MockActivityEnvironment, with the
// activity info a worker would give each attempt, against the sandbox over HTTP.
const served = useSandboxServer();
const { sandbox } = served;
let journal: PaymentJournal;
let wallet: WalletClient;
const fulfilled: { order: Order; answer: PaymentAnswer }[] = [];

beforeEach(() => {
  journal = createMemoryJournal();
  wallet = new WalletClient({ apiKey: DURABLE_API_KEY, baseUrl: served.baseUrl, journal, maxRetries: 1 });
});

const activities = () =>
  createPaymentActivities({
    wallet,
    journal,
    tokenFor: async (email) => tokenOfEmail(email),
    fulfil: async (order, answer) => void fulfilled.push({ order, answer }),
  });

/** The environment a worker gives one attempt of an activity of a workflow. */
const attempt = (workflowId: string, activityId: string, n: number) =>
  new MockActivityEnvironment({
    activityId,
    attempt: n,
    workflowExecution: { workflowId, runId: `run-of-${workflowId}` },
  });

const ledgerOf = (referenceId: string) =>
  sandbox.transactions().filter((tx) => tx.reference_id === referenceId);
const order = (orderId: string, amount: number): Order => ({
  orderId,
  email: 'alice@example.com',
  amount,
  currency: 'KES',
});

describe('the Temporal payment activities', () => {
  test('three attempts of pay whose answers are lost pay once, under the reference id of the workflow and activity', async () => {
    const { pay, resolveOutcome } = activities();
    sandbox.faults.inject({ kind: 'drop-after', route: 'deposit', times: 6 });
    const answers = [];
    for (const n of [1, 2, 3]) answers.push(await attempt('checkout-a', '1', n).run(pay, order('a', 3)));
    expect(answers).toEqual(Array(3).fill({ status: 'unknown', referenceId: 'tp_checkout-a_1' }));
    expect(ledgerOf('tp_checkout-a_1')).toHaveLength(1);

    // The unknown outcome goes to resolveOutcome: applied once already, its status comes with the webhook.
    const resolved = await attempt('checkout-a', '2', 1).run(
      resolveOutcome,
      'tp_checkout-a_1',
      'alice@example.com',
    );
    expect(resolved).toEqual({ status: 'pending', referenceId: 'tp_checkout-a_1' });
    expect(ledgerOf('tp_checkout-a_1')).toHaveLength(1);
    expect(await journal.get('tp_checkout-a_1')).toMatchObject({
      state: 'accepted',
      metadata: { [WORKFLOW_KEY]: 'checkout-a' },
    });
  });

  test('a retry after an attempt that paid answers the payment, and another activity is another payment', async () => {
    const { pay } = activities();
    const first = await attempt('checkout-b', '1', 1).run(pay, order('b', 4));
    expect(first).toMatchObject({ status: 'completed', referenceId: 'tp_checkout-b_1' });
    // The worker died before Temporal recorded the result: the same activity runs again.
    const retry = await attempt('checkout-b', '1', 2).run(pay, order('b', 4));
    expect(retry).toEqual({ status: 'unknown', referenceId: 'tp_checkout-b_1' });
    expect(ledgerOf('tp_checkout-b_1')).toHaveLength(1);
    const other = await attempt('checkout-b', '5', 1).run(pay, order('b', 4));
    expect(other).toMatchObject({ status: 'completed', referenceId: 'tp_checkout-b_5' });
    expect(ledgerOf('tp_checkout-b_5')).toHaveLength(1);
  });

  test('resolveOutcome applies a payment whose first send never arrived, once, and reports its status', async () => {
    const { pay, resolveOutcome } = activities();
    sandbox.faults.inject({ kind: 'drop-before', route: 'deposit', times: 2 });
    expect(await attempt('checkout-c', '1', 1).run(pay, order('c', 5))).toEqual({
      status: 'unknown',
      referenceId: 'tp_checkout-c_1',
    });
    expect(ledgerOf('tp_checkout-c_1')).toHaveLength(0);
    const resolved = await attempt('checkout-c', '2', 1).run(
      resolveOutcome,
      'tp_checkout-c_1',
      'alice@example.com',
    );
    expect(resolved).toMatchObject({ status: 'completed', referenceId: 'tp_checkout-c_1' });
    expect(ledgerOf('tp_checkout-c_1')).toHaveLength(1);
  });

  test('a refused payment is an answer, not a retry', async () => {
    const { pay } = activities();
    const answer = await attempt('checkout-d', '1', 1).run(pay, {
      orderId: 'd',
      email: 'bob@example.com',
      amount: 100_000,
      currency: 'KES',
    });
    expect(answer).toMatchObject({ status: 'refused', referenceId: 'tp_checkout-d_1' });
    expect(ledgerOf('tp_checkout-d_1')).toHaveLength(0);
  });
});

describe('the Temporal webhook handler', () => {
  test('answers 500 when the settlement cannot be delivered to the workflow, and delivers it on redelivery', async () => {
    const { pay } = activities();
    const paid: PaymentAnswer = await attempt('checkout-e', '1', 1).run(pay, {
      orderId: 'order-e',
      email: 'bob@example.com',
      amount: 150,
      currency: 'KES',
      paymentProvider: 'mpesa',
    });
    expect(paid.status).toBe('pending');
    const tx = ledgerOf('tp_checkout-e_1')[0]!;
    sandbox.settle(tx.transaction_id, { status: 'completed', delivery: { mode: 'drop' } });
    const event = {
      transaction_id: tx.transaction_id,
      reference_id: tx.reference_id,
      transaction_status: 'completed',
    };
    const post = (handler: (request: Request) => Promise<Response>) =>
      handler(new Request('http://shop.test/webhooks', { method: 'POST', body: JSON.stringify(event) }));

    const failing: DeliverSettlement = async () => {
      throw new Error('the Temporal frontend is unreachable');
    };
    expect(
      (await post(temporalWebhookHandler({ verifyWith: wallet, journal, deliver: failing }))).status,
    ).toBe(500);

    const delivered: Parameters<DeliverSettlement>[] = [];
    const deliver: DeliverSettlement = async (...args) => void delivered.push(args);
    expect((await post(temporalWebhookHandler({ verifyWith: wallet, journal, deliver }))).status).toBe(200);
    expect(delivered).toEqual([
      [
        'checkout-e',
        { referenceId: 'tp_checkout-e_1', status: 'completed', transactionId: tx.transaction_id },
        {
          orderId: 'order-e',
          email: 'bob@example.com',
          amount: 150,
          currency: 'KES',
          paymentProvider: 'mpesa',
        },
      ],
    ]);
  });
});
