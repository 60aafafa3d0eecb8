import { describe, expect, test } from 'vitest';
import {
  createMemoryJournal,
  type PaymentIntent,
  type WalletClient,
  WalletOutcomeUnknownError,
} from '../../src/index.js';
import { createWebhookHandler } from '../../src/webhooks/index.js';
import { TOKENS, useServerTarget } from '../integration/harness.js';
import { parentOf, useOtel } from './support/otel-harness.js';

const target = useServerTarget();
let wallet: WalletClient | undefined;
const otel = useOtel(() => ({
  pendingFrom: { journalHealth: () => (wallet as WalletClient).journalHealth() },
}));

const STATUS_READ = 'GET /merchants/transactions/status/{transaction_id}';

function journaledClient(settled: string[]) {
  wallet = target().client('node', {
    journal: createMemoryJournal(),
    onSettled: (intent: PaymentIntent, status: string) =>
      void settled.push(`${intent.referenceId} ${status}`),
  });
  return wallet;
}

/** Bob's wallet cannot cover it, so it waits on his mpesa account: pending. */
const pendingDeposit = () => ({
  reference_id: `dep-${crypto.randomUUID()}`,
  amount: 900,
  currency: 'KES',
  payment_provider: 'mpesa',
});

const delivery = (event: object) =>
  new Request('http://shop.test/webhooks', { method: 'POST', body: JSON.stringify(event) });

describe('a payment from its call to its settlement', () => {
  test('a verified webhook is linked to its payment, and its read-back and the settlement run inside it', async () => {
    const settled: string[] = [];
    const client = journaledClient(settled);
    const body = pendingDeposit();
    const deposit = await client.deposit(body, { userToken: TOKENS.bob });
    expect(deposit.transaction_status).toBe('pending');
    target().sandbox.settle(deposit.transaction_id, { status: 'completed', delivery: { mode: 'drop' } });
    const handler = createWebhookHandler({ verifyWith: client, onTransaction: () => {} });
    const event = {
      transaction_id: deposit.transaction_id,
      transaction_status: 'completed',
      reference_id: body.reference_id,
    };
    expect((await handler(delivery(event))).status).toBe(200);
    expect((await handler(delivery(event))).status).toBe(200);
    expect(settled).toEqual([`${body.reference_id} completed`]);

    const payment = otel.span('merchant_wallet.deposit');
    const [webhook, redelivery] = otel.spans().filter((span) => span.name === 'merchant_wallet.webhook');
    expect(webhook?.attributes).toMatchObject({
      'merchant_wallet.reference_id': body.reference_id,
      'merchant_wallet.transaction_id': deposit.transaction_id,
      'merchant_wallet.webhook.type': 'transaction',
      'merchant_wallet.webhook.verified': true,
      'merchant_wallet.webhook.dedupe': 'claimed',
      'merchant_wallet.webhook.outcome': 'processed',
      'http.response.status_code': 200,
    });
    expect(webhook?.links.map((link) => link.context.spanId)).toEqual([payment.spanContext().spanId]);
    expect(redelivery?.attributes['merchant_wallet.webhook.dedupe']).toBe('duplicate');
    const readBack = otel.spans().find((span) => span.name === STATUS_READ);
    expect(parentOf(readBack as NonNullable<typeof readBack>)).toBe(webhook?.spanContext().spanId);

    const settle = otel.span('merchant_wallet.settle');
    expect(settle.attributes).toEqual({
      'merchant_wallet.reference_id': body.reference_id,
      'merchant_wallet.endpoint': 'deposit',
      'merchant_wallet.settlement.path': 'webhook',
      'merchant_wallet.transaction_status': 'completed',
      'merchant_wallet.settlement.settled': true,
    });
    expect(settle.spanContext().traceId).toBe(webhook?.spanContext().traceId);
    expect(settle.links.map((link) => link.context.spanId)).toEqual([payment.spanContext().spanId]);

    const latency = await otel.metric('merchant_wallet.settlement.latency');
    expect(latency.unit).toBe('s');
    expect(latency.points).toEqual([
      {
        attributes: {
          'merchant_wallet.settlement.path': 'webhook',
          'merchant_wallet.endpoint': 'deposit',
          'merchant_wallet.transaction_status': 'completed',
        },
        value: expect.objectContaining({ count: 1 }),
      },
    ]);
    const dedupe = await otel.metric('merchant_wallet.webhook.dedupe');
    expect(dedupe.points).toEqual([
      { attributes: { 'merchant_wallet.webhook.dedupe': 'claimed' }, value: 1 },
      { attributes: { 'merchant_wallet.webhook.dedupe': 'duplicate' }, value: 1 },
    ]);
  });

  test('a final answer settles inside the payment span, on the answer path', async () => {
    const settled: string[] = [];
    const client = journaledClient(settled);
    await client.withdraw({ email: 'alice@example.com', amount: 5, currency: 'KES' });
    const payment = otel.span('merchant_wallet.withdraw');
    const settle = otel.span('merchant_wallet.settle');
    expect(parentOf(settle)).toBe(payment.spanContext().spanId);
    expect(settle.links).toEqual([]);
    expect(settle.attributes['merchant_wallet.settlement.path']).toBe('answer');
  });

  test("the sweeper's claims are counted, and its re-send is a payment span marked as one", async () => {
    const client = journaledClient([]);
    target().sandbox.faults.inject({ route: 'withdraw', kind: 'drop-after', times: 1 });
    const lost = await client
      .withdraw({ email: 'alice@example.com', amount: 5, currency: 'KES' }, { maxRetries: 0 })
      .catch((error: unknown) => error);
    expect(lost).toBeInstanceOf(WalletOutcomeUnknownError);
    const report = await client.sweepOnce();
    expect(report.claimed).toBe(1);
    const [first, resend] = otel.spans().filter((span) => span.name === 'merchant_wallet.withdraw');
    expect(first?.attributes['merchant_wallet.payment.resend']).toBe(false);
    expect(resend?.attributes['merchant_wallet.payment.resend']).toBe(true);
    const claims = await otel.metric('merchant_wallet.sweeper.claims');
    expect(claims.points).toEqual([
      {
        attributes: {
          'merchant_wallet.sweeper.action': 'resend',
          'merchant_wallet.sweeper.outcome': report.intents[0]?.outcome,
        },
        value: 1,
      },
    ]);
  });

  test('the oldest pending payment is observed from the journal at each collection', async () => {
    const client = journaledClient([]);
    const empty = await otel.metric('merchant_wallet.payment.oldest_pending.age');
    expect(empty.points.map((point) => point.value)).toEqual([0]);
    await client.deposit(pendingDeposit(), { userToken: TOKENS.bob });
    const health = await client.journalHealth();
    const gauge = await otel.metric('merchant_wallet.payment.oldest_pending.age');
    expect(gauge.unit).toBe('s');
    const [value] = gauge.points.map((point) => point.value as number);
    expect(value).toBeGreaterThanOrEqual(health.oldestPendingMs / 1000);
    expect(value).toBeGreaterThan(0);
  });
});
