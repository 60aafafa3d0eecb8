import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { isWalletApiError, type PaymentIntent, WalletConfigError } from '../../src/index.js';
import { createWallet, restartGraceMs, type Wallet, type WalletConfig } from '../../src/wallet/index.js';
import { KEYS, TOKENS, useServerTarget } from '../integration/harness.js';

const target = useServerTarget();

let server: Server | undefined;
let wallet: Wallet | undefined;
let hookUrl = '';

/** A wallet of the demo merchant on the sandbox, its webhook endpoint served over real HTTP. */
async function serve(config: WalletConfig = {}): Promise<Wallet> {
  wallet = createWallet({ apiKey: KEYS.demo, baseUrl: target().baseUrl, logLevel: 'off', ...config });
  server = createServer(wallet.nodeWebhooks);
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/wallet/webhooks`;
  return wallet;
}

const post = (body: unknown) =>
  fetch(hookUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

beforeEach(() => {
  server = undefined;
  wallet = undefined;
});
afterEach(async () => {
  await wallet?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
});

describe('createWallet', () => {
  test('answers webhooks 503 until started, is ready after start(), and 503 again once closed', async () => {
    const settled: string[] = [];
    const built = await serve({ onSettled: (intent) => void settled.push(intent.referenceId) });
    expect([built.state, built.ready]).toEqual(['created', false]);
    const early = await post({
      event: 'transaction',
      transaction_id: 'txn_x',
      transaction_status: 'completed',
    });
    expect(early.status).toBe(503);
    expect(early.headers.get('retry-after')).toBe('1');
    expect((await early.json()).error).toBe('starting');
    const report = await built.start();
    expect([built.state, built.ready, report.sweeping]).toEqual(['ready', true, true]);
    expect(await built.start()).toBe(report);
    await built.close();
    expect([built.state, built.ready]).toEqual(['closed', false]);
    expect((await (await post({})).json()).error).toBe('closing');
    await expect(built.client.getTransaction('txn_1')).rejects.toThrow(WalletConfigError);
    await expect(built.start()).rejects.toThrow(WalletConfigError);
  });

  test('a pending deposit is fulfilled once from its verified webhook, delivered twice, with no onTransaction', async () => {
    const settled: [string, string][] = [];
    const built = await serve({
      onSettled: (intent, status) => void settled.push([intent.referenceId, status]),
    });
    await built.start();
    const reference = `order-${crypto.randomUUID()}`;
    const deposit = await built.client.deposit(
      {
        reference_id: reference,
        amount: 900,
        currency: 'KES',
        payment_provider: 'mpesa',
        webhook_url: hookUrl,
      },
      { userToken: TOKENS.bob },
    );
    expect(deposit.transaction_status).toBe('pending');
    target().sandbox.settle(deposit.transaction_id, { status: 'completed', delivery: { mode: 'twice' } });
    await target().sandbox.webhooks.idle();
    expect(settled).toEqual([[reference, 'completed']]);
    expect((await built.journal.get(reference))?.settledAt).toBeDefined();
  });

  test("the webhook endpoint's flood bounds come from webhooks: a forged id is remembered for notFoundMs", async () => {
    const built = await serve({ webhooks: { notFoundMs: 5_000, maxVerifications: 4 } });
    await built.start();
    const forged = {
      event: 'transaction',
      transaction_id: 'txn_forged',
      transaction_status: 'completed',
      reference_id: 'attacker-order',
      amount: 1_000,
      currency: 'KES',
    };
    expect((await post(forged)).status).toBe(503);
    const remembered = await post(forged);
    expect(remembered.status).toBe(503);
    expect(await remembered.json()).toMatchObject({ error: 'verification_failed' });
    const retryAfter = Number(remembered.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(4);
    expect(retryAfter).toBeLessThanOrEqual(5);
  });

  test('flood bounds out of range are refused at once, naming the option', () => {
    expect(() =>
      createWallet({ apiKey: KEYS.demo, baseUrl: target().baseUrl, webhooks: { maxVerifications: 0 } }),
    ).toThrow(/maxVerifications/);
    expect(() =>
      createWallet({ apiKey: KEYS.demo, baseUrl: target().baseUrl, webhooks: { notFoundMs: -1 } }),
    ).toThrow(/notFoundMs/);
  });

  test('a refused withdrawal runs onRefused once, with its code', async () => {
    const refused: PaymentIntent[] = [];
    const built = await serve({ onRefused: (intent) => void refused.push(intent) });
    await built.start();
    const body = {
      reference_id: `wd-${crypto.randomUUID()}`,
      email: 'alice@example.com',
      amount: 999_999_999,
      currency: 'KES',
    };
    const error = await built.client.withdraw(body).catch((caught: unknown) => caught);
    expect(isWalletApiError(error)).toBe(true);
    expect(refused.map((intent) => [intent.referenceId, intent.reason])).toEqual([
      [body.reference_id, (error as { code: string }).code],
    ]);
  });

  test('start() recovers an unknown intent at once and leaves a sending one to the call that may still send it', async () => {
    const built = await serve({ sweeper: false });
    const merchant = built.client.merchant;
    const unknown = {
      reference_id: `wd-${crypto.randomUUID()}`,
      email: 'alice@example.com',
      amount: 5,
      currency: 'KES',
    };
    await built.journal.record({
      referenceId: unknown.reference_id,
      endpoint: 'withdraw',
      body: unknown,
      merchant,
    });
    await built.journal.update(unknown.reference_id, { state: 'unknown' });
    const sending = { ...unknown, reference_id: `wd-${crypto.randomUUID()}` };
    await built.journal.record({
      referenceId: sending.reference_id,
      endpoint: 'withdraw',
      body: sending,
      merchant,
    });
    const report = await built.start();
    expect(report.sweeping).toBe(false);
    expect(report.recovered.intents.map((one) => [one.referenceId, one.action, one.outcome])).toEqual([
      [unknown.reference_id, 'resend', 'applied'],
    ]);
    expect((await built.journal.get(sending.reference_id))?.state).toBe('sending');
    expect((await built.journal.get(unknown.reference_id))?.state).toBe('completed');
  });

  test('the restart rule is the longest a payment call of the client runs: attempts, Retry-After waits and the outcome write', () => {
    expect(restartGraceMs({})).toBe(4 * 30_000 + 2 * 60_000);
    expect(restartGraceMs({ timeoutMs: 1_000, maxRetries: 0 })).toBe(2_000);
  });

  test('start() re-sends a sending intent once no call of this client could still be sending it', async () => {
    const built = await serve({ sweeper: false, timeoutMs: 500, maxRetries: 0 });
    const body = {
      reference_id: `wd-${crypto.randomUUID()}`,
      email: 'alice@example.com',
      amount: 5,
      currency: 'KES',
    };
    const merchant = built.client.merchant;
    await built.journal.record({ referenceId: body.reference_id, endpoint: 'withdraw', body, merchant });
    await new Promise((resolve) =>
      setTimeout(resolve, restartGraceMs({ timeoutMs: 500, maxRetries: 0 }) + 50),
    );
    const report = await built.start();
    expect(report.recovered.intents.map((one) => [one.referenceId, one.action])).toEqual([
      [body.reference_id, 'resend'],
    ]);
    expect((await built.journal.get(body.reference_id))?.state).toBe('completed');
  });

  test('a user_authorized webhook reaches the vault, and a deposit by e-mail then uses the token', async () => {
    const key = Buffer.alloc(32, 7).toString('base64');
    const built = await serve({
      vault: { keys: { primary: 'k1', keys: { k1: key } }, appId: 'app_demo_shop' },
    });
    await built.start();
    const answer = await post({ event: 'user_authorized', user_email: 'bob@example.com', token: TOKENS.bob });
    expect(await answer.json()).toEqual({ received: true });
    expect(await built.vault?.tokenFor('bob@example.com')).toBe(TOKENS.bob);
    const deposit = await built.client.deposit(
      { reference_id: `order-${crypto.randomUUID()}`, amount: 5, currency: 'KES' },
      { user: 'bob@example.com' },
    );
    expect(deposit.transaction_status).toBe('completed');
  });

  test('a bad configuration is refused at once, naming every field at fault', () => {
    let caught: unknown;
    try {
      createWallet({
        apiKey: KEYS.demo,
        baseUrl: target().baseUrl,
        store: 'memory',
        onTransaction: 'log' as never,
        webhooks: { ttl: 5 } as never,
        sweeper: { sendingGraceMs: 1_000, intervalMs: -1 } as never,
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(WalletConfigError);
    expect((caught as WalletConfigError).issues.map((issue) => issue.path)).toEqual([
      'onTransaction',
      'webhooks.ttl',
      'sweeper.sendingGraceMs',
      'sweeper.intervalMs',
    ]);
    expect(() =>
      createWallet({ apiKey: KEYS.demo, baseUrl: target().baseUrl, store: 'sqlite' as never }),
    ).toThrow(/store/);
  });

  test('no secret appears in an error, the wallet, or its JSON', () => {
    let caught: unknown;
    try {
      createWallet({
        apiKey: KEYS.demo,
        baseUrl: 'ftp://nowhere',
        vault: { keys: { primary: 'k1', keys: { k1: 'short' } }, appId: 'a' },
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(WalletConfigError);
    expect(String((caught as Error).message)).not.toContain(KEYS.demo);
    expect(JSON.stringify(caught)).not.toContain(KEYS.demo);
  });
});
