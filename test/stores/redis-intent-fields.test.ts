import { describe, expect, test } from 'vitest';
import {
  fieldAt,
  INTENT_FIELD_WORDS_LUA,
  INTENT_FIELDS,
  intentFromValues,
  READ_INTENT_LUA,
} from '../../src/stores/redis/intent-fields.js';

/** A script's answer: the values of `stored` in the order of INTENT_FIELDS, null where absent. */
const answer = (stored: Record<string, string>) => INTENT_FIELDS.map((field) => stored[field] ?? null);

const written = {
  referenceId: 'r-1',
  endpoint: 'withdraw',
  body: '{"amount":5,"currency":"KES"}',
  state: 'accepted',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:01.000Z',
};

describe('reading an intent a Redis script answered by position', () => {
  test('every stored field lands on its own name, JSON fields parsed, counts as numbers', () => {
    const intent = intentFromValues(
      answer({
        ...written,
        merchant: 'mw1:m',
        recordedBy: 'call-1',
        userEmail: 'bob@example.com',
        keyFingerprint: 'mk1:k',
        metadata: '{"orderId":"o-1"}',
        records: '3',
        transactionId: 'tx-1',
        transactionStatus: 'pending',
        reason: 'why',
        settledAt: '2026-01-01T00:00:02.000Z',
        nextCheckAt: '2026-01-01T00:00:03.000Z',
        checks: '2',
        leaseUntil: String(Date.parse('2026-01-01T00:00:04.000Z')),
        settledBy: 'webhook',
      }),
    );
    expect(intent).toStrictEqual({
      referenceId: 'r-1',
      endpoint: 'withdraw',
      body: { amount: 5, currency: 'KES' },
      merchant: 'mw1:m',
      recordedBy: 'call-1',
      userEmail: 'bob@example.com',
      keyFingerprint: 'mk1:k',
      metadata: { orderId: 'o-1' },
      records: 3,
      state: 'accepted',
      transactionId: 'tx-1',
      transactionStatus: 'pending',
      reason: 'why',
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:01.000Z',
      settledAt: '2026-01-01T00:00:02.000Z',
      nextCheckAt: '2026-01-01T00:00:03.000Z',
      checks: 2,
      leaseUntil: '2026-01-01T00:00:04.000Z',
      settledBy: 'webhook',
    });
  });

  test('fields an earlier version never wrote read as they always did; absent optional ones stay absent', () => {
    const intent = intentFromValues(answer({ ...written, state: 'applied', transactionStatus: 'completed' }));
    expect(intent).toMatchObject({ state: 'completed', records: 1, checks: 0, metadata: undefined });
    for (const field of ['keyFingerprint', 'leaseUntil', 'settledBy'])
      expect(intent).not.toHaveProperty(field);
    expect(intentFromValues(answer({ ...written, state: 'applied' }))?.state).toBe('accepted');
  });

  test('no intent reads as undefined: all values nil, a bare false, or anything but a list', () => {
    expect(intentFromValues(answer({}))).toBeUndefined();
    for (const reply of [null, undefined, 0, 1, 'OK']) expect(intentFromValues(reply)).toBeUndefined();
  });

  test('the Lua reader asks for exactly the fields, in the order the client reads them', () => {
    const asked = [...INTENT_FIELD_WORDS_LUA.matchAll(/'([A-Za-z]+)'/g)].map((match) => match[1]);
    expect(asked).toEqual([...INTENT_FIELDS]);
    expect(READ_INTENT_LUA).toContain(`redis.call('HMGET', key, ${INTENT_FIELD_WORDS_LUA})`);
  });

  test("fieldAt gives each field's position in the answer, counted from 1 as Lua counts", () => {
    expect(INTENT_FIELDS.map(fieldAt)).toEqual(INTENT_FIELDS.map((_, index) => index + 1));
    const answered = answer({ ...written, reason: 'limit' });
    expect(answered[fieldAt('reason') - 1]).toBe('limit');
    expect(answered[fieldAt('state') - 1]).toBe('accepted');
  });
});
