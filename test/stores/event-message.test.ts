import { describe, expect, test } from 'vitest';
import { WalletResponseValidationError } from '../../src/errors.js';
import type { TransactionResult } from '../../src/schemas/responses.js';
import {
  decodeEventMessage,
  encodeEventMessage,
  encodeProbe,
  MAX_MESSAGE_BYTES,
} from '../../src/stores/event-message.js';
import { reconnectDelayMs } from '../../src/stores/reconnect-delay.js';

const status: TransactionResult = {
  transaction_id: 'tx_1',
  reference_id: 'order-1',
  transaction_status: 'completed',
  amount: '250.00',
  currency: 'KES',
  failure_reason: null,
};

describe('transaction event messages', () => {
  test('a verified event travels with its status and reads back as it was sent', () => {
    const text = encodeEventMessage('me', { transaction_id: 'tx_1' }, { verified: true, status }) as string;
    expect(decodeEventMessage(text)).toEqual({ origin: 'me', event: { transaction_id: 'tx_1' }, status });
  });

  test('only the transaction id and a verified status are sent: never the posted body or the request', () => {
    const event = { transaction_id: 'tx_1', transaction_status: 'completed', user_email: 'a@b.c' };
    const context = {
      verified: true,
      status,
      request: new Request('http://x/', { headers: { 'x-api-key': 'k' } }),
    };
    expect(JSON.parse(encodeEventMessage('me', event, context) as string)).toEqual({
      v: 1,
      origin: 'me',
      transaction_id: 'tx_1',
      status,
    });
  });

  test('an unverified event, or a status about another transaction, is sent as a hint', () => {
    const hint = { v: 1, origin: 'me', transaction_id: 'tx_1' };
    expect(
      JSON.parse(encodeEventMessage('me', { transaction_id: 'tx_1' }, { verified: false }) as string),
    ).toEqual(hint);
    const other = { verified: true, status: { ...status, transaction_id: 'tx_2' } };
    expect(JSON.parse(encodeEventMessage('me', { transaction_id: 'tx_1' }, other) as string)).toEqual(hint);
  });

  test('a status too large for one NOTIFY is sent as a hint, and an id too long is not sent at all', () => {
    const large = { verified: true, status: { ...status, note: 'x'.repeat(MAX_MESSAGE_BYTES) } };
    const text = encodeEventMessage('me', { transaction_id: 'tx_1' }, large) as string;
    expect(JSON.parse(text)).toEqual({ v: 1, origin: 'me', transaction_id: 'tx_1' });
    expect(encodeEventMessage('me', { transaction_id: 'x'.repeat(257) }, undefined)).toBeUndefined();
  });

  test('a message whose status fails the TransactionResult schema is refused with the fields at fault', () => {
    const bad = JSON.stringify({
      v: 1,
      origin: 'x',
      transaction_id: 'tx_1',
      status: { ...status, amount: 250 },
    });
    const error = decodeEventMessage(bad) as WalletResponseValidationError;
    expect(error).toBeInstanceOf(WalletResponseValidationError);
    expect(error.issues).toEqual([{ path: 'status.amount', message: 'must be of type string' }]);
  });

  test('anything else off the wire that is not a version 1 message is refused, never thrown', () => {
    const refused = [
      '',
      'null',
      '{"v":1}',
      'x'.repeat(MAX_MESSAGE_BYTES + 1),
      '{"v":1,"origin":"x","transaction_id":7}',
    ];
    for (const text of refused)
      expect(decodeEventMessage(text)).toBeInstanceOf(WalletResponseValidationError);
  });

  test('a probe reads back as a probe of its sender, never as an event', () => {
    expect(decodeEventMessage(encodeProbe('me'))).toEqual({ origin: 'me', probe: true });
  });

  test('reconnection waits double from 100 ms up to 5 s, each drawn from the upper half', () => {
    expect([0, 1, 2, 10].map((attempt) => reconnectDelayMs(attempt, () => 1))).toEqual([
      100, 200, 400, 5_000,
    ]);
    expect(reconnectDelayMs(0, () => 0)).toBe(50);
    expect(reconnectDelayMs(1_000, () => 0)).toBe(2_500);
  });
});
