import { describe, expect, test } from 'vitest';
import {
  isReauthorizationRequired,
  WalletRequestValidationError,
  WalletWebhookError,
} from '../../src/index.js';
import { createWebhookHandler, parseWebhookEvent } from '../../src/webhooks/index.js';
import { useServerTarget } from '../integration/harness.js';
import { APP_ID, vaultWith } from './keys.js';

const target = useServerTarget();
const ALICE = 'alice@example.com';
const body = () => ({ reference_id: `ref-${crypto.randomUUID()}`, amount: 10, currency: 'KES' });
const forged = (length: number) => `tok_${'x'.repeat(length - 4)}`;

describe('tokens and e-mails have bounds', () => {
  test('receive refuses a token over 4,096 characters and an e-mail over 254, naming the field', async () => {
    const { vault, store } = vaultWith();
    await expect(vault.receive({ user_email: ALICE, token: forged(1_000_000) })).rejects.toThrow(
      /event\.token.*at most 4096/,
    );
    await expect(vault.receive({ user_email: ALICE, token: forged(4_097) })).rejects.toBeInstanceOf(
      WalletRequestValidationError,
    );
    const long = `${'a'.repeat(250)}@example.com`;
    await expect(vault.receive({ user_email: long, token: 'tok_ok' })).rejects.toThrow(
      /event\.user_email.*at most 254/,
    );
    expect(await store.scan('', undefined, 10)).toEqual([]);
    await vault.receive({ user_email: ALICE, token: forged(4_096) });
    expect(await vault.tokenFor(ALICE)).toHaveLength(4_096);
  });

  test('the webhook handler answers 400 to an oversized token and never calls onUserAuthorized', async () => {
    const received: unknown[] = [];
    const handler = createWebhookHandler({ onUserAuthorized: (event) => void received.push(event) });
    const deliver = (token: string, email = ALICE) =>
      handler(
        new Request('http://shop.test/webhooks', {
          method: 'POST',
          body: JSON.stringify({ event: 'user_authorized', user_email: email, token }),
        }),
      );
    expect((await deliver(forged(20_000))).status).toBe(400);
    expect((await deliver('tok_ok', `${'a'.repeat(250)}@example.com`)).status).toBe(400);
    expect(received).toEqual([]);
    expect(() =>
      parseWebhookEvent({ event: 'user_authorized', user_email: ALICE, token: forged(4_097) }),
    ).toThrow(WalletWebhookError);
    expect((await deliver(forged(4_096))).status).toBe(200);
    expect(received).toHaveLength(1);
  });

  test('the memory store refuses a key or value over its bounds, naming it', async () => {
    const { store } = vaultWith();
    await expect(store.compareAndSet('k'.repeat(513), undefined, 'v')).rejects.toThrow(/key/);
    await expect(store.compareAndSet('k', undefined, 'v'.repeat(16_385))).rejects.toThrow(/value/);
  });

  test('a candidate the service answers with a 400 is unusable: dropped, and the user is asked to reconnect', async () => {
    const { vault } = vaultWith();
    const wallet = target().client('node', { tokens: vault });
    await vault.receive({ user_email: ALICE, token: forged(4_096) });
    target().sandbox.faults.inject({ kind: 'respond', status: 400, route: 'providers' });
    const error = await wallet.deposit(body(), { user: ALICE }).catch((caught: unknown) => caught);
    expect(isReauthorizationRequired(error)).toBe(true);
    expect(error).toMatchObject({ sent: false, endpoint: 'deposit' });
    expect(await vault.tokenFor(ALICE)).toBeUndefined();

    await vault.receive({ user_email: ALICE, token: forged(300) });
    target().sandbox.faults.inject({ kind: 'respond', status: 400, route: 'providers' });
    expect(await vault.confirm(ALICE, { client: wallet })).toBe(false);
    expect(await vault.tokenFor(ALICE)).toBeUndefined();
  });

  test('a forged candidate next to a working token is dropped by its check, and the payment goes through', async () => {
    const { vault } = vaultWith();
    const wallet = target().client('node', { tokens: vault });
    const token = target().sandbox.authorize({ email: ALICE, appId: APP_ID });
    await vault.receive({ user_email: ALICE, token });
    await wallet.listProviders({ user: ALICE });
    await vault.receive({ user_email: ALICE, token: forged(2_000) });
    await expect(wallet.deposit(body(), { user: ALICE })).resolves.toMatchObject({
      transaction_status: 'completed',
    });
    expect(await vault.tokenFor(ALICE)).toBe(token);
  });
});
