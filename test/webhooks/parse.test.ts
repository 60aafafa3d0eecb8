import { inspect } from 'node:util';
import { describe, expect, test } from 'vitest';
import { WalletWebhookError } from '../../src/webhooks/errors.js';
import { parseWebhookEvent, type WebhookBody } from '../../src/webhooks/index.js';
import {
  WEBHOOK_TOKEN as TOKEN,
  completedBody as transaction,
  userAuthorizedBody as userAuthorized,
} from '../helpers/webhook-fixtures.js';

function refusal(body: unknown, options?: { maxBytes?: number }): WalletWebhookError {
  try {
    parseWebhookEvent(body as WebhookBody, options);
  } catch (error) {
    expect(error).toBeInstanceOf(WalletWebhookError);
    return error as WalletWebhookError;
  }
  throw new Error('expected parseWebhookEvent to throw');
}

describe('parseWebhookEvent', () => {
  test('reads a user_authorized event', () => {
    const event = parseWebhookEvent(JSON.stringify(userAuthorized));
    expect(event).toEqual({ ...userAuthorized, type: 'user_authorized' });
  });

  test('reads a transaction event with event "transaction" or without event', () => {
    expect(parseWebhookEvent(transaction)).toEqual({ ...transaction, type: 'transaction' });
    const { event: _event, ...withoutEvent } = transaction;
    expect(parseWebhookEvent(withoutEvent)).toEqual({ ...withoutEvent, type: 'transaction' });
  });

  test('accepts every documented transaction field, amount as number or string', () => {
    const body = {
      transaction_id: 'tx_2',
      transaction_status: 'failed',
      amount: '12.50',
      currency: 'KES',
      failure_reason: 'psp_error',
      date_completed: 20261121143005,
    };
    expect(parseWebhookEvent(body)).toEqual({ ...body, type: 'transaction' });
    expect(parseWebhookEvent({ ...body, failure_reason: null })).toMatchObject({ failure_reason: null });
  });

  test('keeps unknown extra fields', () => {
    const event = parseWebhookEvent({ ...transaction, provider_ref: 'MPESA123', meta: { a: 1 } });
    expect(event).toMatchObject({ provider_ref: 'MPESA123', meta: { a: 1 } });
    expect(parseWebhookEvent({ ...userAuthorized, scope: 'payments' })).toMatchObject({ scope: 'payments' });
  });

  test('a type field in the body cannot change the discriminant', () => {
    expect(parseWebhookEvent({ ...transaction, type: 'user_authorized' }).type).toBe('transaction');
  });

  test.each([
    ['string', JSON.stringify(transaction)],
    ['Buffer', Buffer.from(JSON.stringify(transaction))],
    ['Uint8Array', new TextEncoder().encode(JSON.stringify(transaction))],
    ['ArrayBuffer', new TextEncoder().encode(JSON.stringify(transaction)).buffer],
    [
      'Uint8Array view into a larger buffer',
      Buffer.from(`xx${JSON.stringify(transaction)}yy`).subarray(2, -2),
    ],
    ['string with a byte-order mark', `\uFEFF${JSON.stringify(transaction)}`],
    ['parsed object', transaction],
  ])('accepts a %s body', (_kind, body) => {
    expect(parseWebhookEvent(body)).toMatchObject({ type: 'transaction', transaction_id: 'tx_1' });
  });

  test.each([
    ['non-JSON text', '{"event": ', 'invalid_json'],
    ['empty text', '', 'invalid_json'],
    ['non-JSON bytes', Buffer.from('<xml/>'), 'invalid_json'],
    ['bytes that are not UTF-8', Uint8Array.from([0x7b, 0xff, 0xfe, 0x7d]), 'invalid_body'],
    ['a JSON array', '[1,2]', 'invalid_body'],
    ['JSON null', 'null', 'invalid_body'],
    ['a JSON number', '42', 'invalid_body'],
    ['a JSON string', '"user_authorized"', 'invalid_body'],
    ['an array object', [transaction], 'invalid_body'],
    ['null', null, 'invalid_body'],
    ['undefined', undefined, 'invalid_body'],
    ['a number', 42, 'invalid_body'],
    ['an unknown event', { event: 'refund_created', transaction_id: 'tx' }, 'unknown_event'],
    ['no event and no transaction fields', { hello: 'world' }, 'unknown_event'],
    ['an event that is not a string', { event: 5 }, 'invalid_fields'],
    ['user_authorized without token', { event: 'user_authorized', user_email: 'a@b.c' }, 'invalid_fields'],
    ['user_authorized with a blank token', { ...userAuthorized, token: ' ' }, 'invalid_fields'],
    ['user_authorized with a numeric token', { ...userAuthorized, token: 12 }, 'invalid_fields'],
    ['user_authorized without user_email', { event: 'user_authorized', token: TOKEN }, 'invalid_fields'],
    ['transaction without transaction_status', { transaction_id: 'tx' }, 'invalid_fields'],
    [
      'transaction without transaction_id',
      { event: 'transaction', transaction_status: 'pending' },
      'invalid_fields',
    ],
    [
      'transaction with an unknown status',
      { ...transaction, transaction_status: 'reversed' },
      'invalid_fields',
    ],
    ['transaction with a numeric id', { ...transaction, transaction_id: 7 }, 'invalid_fields'],
    ['transaction with an object amount', { ...transaction, amount: { value: 1 } }, 'invalid_fields'],
    ['transaction with a NaN-like amount', { ...transaction, amount: Number.NaN }, 'invalid_fields'],
    ['transaction with a numeric currency', { ...transaction, currency: 404 }, 'invalid_fields'],
    [
      'transaction with a fractional date_completed',
      { ...transaction, date_completed: 1.5 },
      'invalid_fields',
    ],
    [
      'transaction with a boolean failure_reason',
      { ...transaction, failure_reason: false },
      'invalid_fields',
    ],
  ])('refuses %s with reason %s', (_kind, body, reason) => {
    expect(refusal(body).reason).toBe(reason);
  });

  test('names every invalid field', () => {
    const error = refusal({
      event: 'transaction',
      transaction_id: '',
      transaction_status: 'done',
      amount: [],
    });
    expect(error.issues.map((issue) => issue.path)).toEqual([
      'transaction_id',
      'transaction_status',
      'amount',
    ]);
    expect(error.message).toContain('transaction_status: must be "pending", "completed" or "failed"');
  });

  describe('size limit', () => {
    const big = JSON.stringify({ ...transaction, note: 'x'.repeat(70_000) });

    test('refuses text or bytes over 64 KiB by default', () => {
      expect(refusal(big).reason).toBe('too_large');
      expect(refusal(Buffer.from(big)).reason).toBe('too_large');
      expect(refusal(new TextEncoder().encode(big).buffer).reason).toBe('too_large');
    });

    test('measures bytes, not characters', () => {
      // 30 three-byte characters: 30 UTF-16 units but 90 UTF-8 bytes.
      const body = JSON.stringify({ ...transaction, note: '€'.repeat(30) });
      const bytes = new TextEncoder().encode(body).byteLength;
      expect(parseWebhookEvent(body, { maxBytes: bytes })).toMatchObject({ note: '€'.repeat(30) });
      expect(body.length).toBeLessThan(bytes - 50);
      expect(refusal(body, { maxBytes: bytes - 1 }).reason).toBe('too_large');
      expect(refusal(Buffer.from(body), { maxBytes: bytes - 1 }).reason).toBe('too_large');
    });

    test('a bad maxBytes is a configuration error', () => {
      expect(() => parseWebhookEvent('{}', { maxBytes: 0 })).toThrow(/maxBytes/);
    });
  });

  describe('the user token stays secret', () => {
    test('no refusal of a user_authorized body quotes the token', () => {
      const bodies = [
        { ...userAuthorized, user_email: 'not an email' },
        { ...userAuthorized, user_email: 7 },
        { ...userAuthorized, event: 'user_authorised' },
        `{"event":"user_authorized","token":"${TOKEN}",`,
        `{"event":"user_authorized","token":"${TOKEN}" "user_email":"a@b.c"}`,
      ];
      for (const body of bodies) {
        const error = refusal(body);
        expect(JSON.stringify(error)).not.toContain(TOKEN);
        expect(inspect(error)).not.toContain(TOKEN);
        expect(error.message).not.toContain(TOKEN);
        expect(String(error.stack)).not.toContain(TOKEN);
        expect(error.cause).toBeUndefined();
      }
    });

    test('inspecting an event shows the token redacted; the value itself is intact', () => {
      const event = parseWebhookEvent(userAuthorized);
      expect(inspect(event)).not.toContain(TOKEN);
      expect(inspect(event)).toContain('[redacted]');
      expect(event.type === 'user_authorized' && event.token).toBe(TOKEN);
    });
  });
});
