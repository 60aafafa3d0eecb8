import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { WalletConfigError } from '../../src/index.js';
import { FORGERY_KINDS, type ForgeryKind } from '../../src/testing/index.js';
import { parseWebhookEvent } from '../../src/webhooks/index.js';
import { type Running, runSandbox, startPendingDeposit } from './helpers.js';

/** A receiver that keeps each body as the exact text posted, and answers 200. */
async function rawReceiver() {
  const bodies: string[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
    bodies.push(Buffer.concat(chunks).toString('utf8'));
    res.writeHead(200).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return { url, bodies, close };
}

let run: Running;
let receiver: Awaited<ReturnType<typeof rawReceiver>>;
let txId: string;

beforeEach(async () => {
  receiver = await rawReceiver();
  run = await runSandbox(undefined, { controlKey: 'forge-test-control-key' });
  run.sandbox.updateMerchant('app_demo_shop', {
    depositWebhookUrl: receiver.url,
    authWebhookUrl: receiver.url,
  });
  txId = (await startPendingDeposit(run)).id;
  run.sandbox.settle(txId, { status: 'completed' });
  await run.sandbox.webhooks.idle();
  receiver.bodies.length = 0;
});
afterEach(async () => {
  await run.close();
  await receiver.close();
});

async function forged(kind: ForgeryKind, extra: Record<string, unknown> = {}) {
  const delivery = run.sandbox.forge({ kind, ...extra });
  await run.sandbox.webhooks.idle();
  expect(receiver.bodies).toHaveLength(1);
  return { delivery, text: receiver.bodies[0] as string };
}

const genuine = () => JSON.parse(JSON.stringify(run.sandbox.webhooks.deliveries()[0]?.event));

describe('sandbox.forge sends what an attacker or a broken network would', () => {
  test('an unknown transaction id: a completed event for an id the service never issued', async () => {
    const { text, delivery } = await forged('unknown-transaction');
    const event = JSON.parse(text);
    expect(event.transaction_status).toBe('completed');
    expect(run.sandbox.transaction(event.transaction_id)).toBeUndefined();
    expect(delivery).toMatchObject({ forgery: 'unknown-transaction', state: 'pending' });
  });

  test.each([
    ['changed-amount', 'amount'],
    ['changed-status', 'transaction_status'],
    ['changed-reference', 'reference_id'],
    ['changed-currency', 'currency'],
  ] as const)("%s changes exactly the %s of a real deposit's event", async (kind, field) => {
    const { text } = await forged(kind, { transactionId: txId });
    const event = JSON.parse(text);
    const real = genuine();
    expect(event[field]).not.toEqual(real[field]);
    expect({ ...event, [field]: real[field] }).toEqual(real);
  });

  test('malformed JSON is refused by the SDK parser; the oversized body is the event padded to the size asked', async () => {
    const malformed = await forged('malformed-json');
    expect(() => JSON.parse(malformed.text)).toThrow();
    receiver.bodies.length = 0;
    const big = await forged('oversized', { bytes: 200_000 });
    expect(Buffer.byteLength(big.text)).toBe(200_000);
    expect(JSON.parse(big.text)).toEqual(genuine());
    expect(() => parseWebhookEvent(big.text)).toThrow(/larger than/);
  });

  test('an unknown event type and a made-up token go to the auth URL as well-formed JSON', async () => {
    const unknown = await forged('unknown-event');
    expect(JSON.parse(unknown.text).event).toBe('payout.created');
    receiver.bodies.length = 0;
    const token = await forged('made-up-token');
    const event = JSON.parse(token.text);
    expect(event).toMatchObject({ event: 'user_authorized', user_email: 'bob@example.com' });
    expect([...run.sandbox.transactions()].length).toBe(1);
    // The sandbox never issued it: a deposit with it is refused.
    const answer = await run.api({
      path: '/merchants/accounts/providers',
      key: 'sk_sandbox_demo_shop',
      token: event.token,
    });
    expect(answer.status).toBe(403);
  });

  test('a forgery is logged with its kind and exact body, and a redelivery sends the same text', async () => {
    const { delivery, text } = await forged('malformed-json');
    expect(run.sandbox.webhooks.deliveries().at(-1)).toMatchObject({ forgery: 'malformed-json', body: text });
    run.sandbox.webhooks.redeliver(delivery.id);
    await run.sandbox.webhooks.idle();
    expect(receiver.bodies).toEqual([text, text]);
  });

  test('the control API forges too, and refuses an unknown kind naming the field', async () => {
    const headers = { 'x-sandbox-key': 'forge-test-control-key' };
    const ok = await run.api({ path: '/_sandbox/webhooks/forge', body: { kind: 'changed-amount' }, headers });
    expect(ok.status).toBe(200);
    expect((ok.body as { delivery: { forgery: string } }).delivery.forgery).toBe('changed-amount');
    const bad = await run.api({ path: '/_sandbox/webhooks/forge', body: { kind: 'nope' }, headers });
    expect(bad.status).toBe(400);
    expect((bad.body as { message: string }).message).toMatch(
      /^forgery\.kind: must be one of unknown-transaction/,
    );
  });

  test('bad requests throw WalletConfigError naming the field and problem, and send nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ kind: 'changed-amount', transactionId: 'txn_999999' }, 'forgery.transactionId'],
      [{ kind: 'oversized', bytes: 0 }, 'forgery.bytes'],
      [{ kind: 'changed-amount', url: 'ftp://x' }, 'forgery.url'],
      [{ kind: 'changed-amount', appId: 'app_nobody' }, 'forgery.appId'],
      [{ kind: 'made-up-token', appId: 'app_other_shop' }, 'forgery.url'],
    ];
    for (const [request, option] of cases) {
      let error: unknown;
      try {
        run.sandbox.forge(request as never);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(WalletConfigError);
      expect((error as WalletConfigError).option).toBe(option);
    }
    expect(run.sandbox.webhooks.deliveries()).toHaveLength(1);
    expect(FORGERY_KINDS).toHaveLength(9);
  });
});
