/**
 * A fresh record's script answers 1 alone and the client builds the intent from what it sent: the
 * built intent must equal, field for field, what the store reads back (`get`), whatever was sent,
 * through node-redis and ioredis. Updates and re-records answer the stored intent by position.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { NewPaymentIntent, PaymentJournal } from '../../../src/journal/types.js';
import { createRedisJournal } from '../../../src/stores/redis/index.js';
import { useRedisClients } from './redis-clients.js';

const redis = useRedisClients();
let prefixes = 0;
const freshPrefix = () => `fresh-${++prefixes}:`;

let references = 0;
const optionalText = fc.option(fc.oneof(fc.constant(''), fc.string({ maxLength: 12 })), { nil: undefined });
/** Any intent a caller may record: optional fields absent, empty or set, bodies of any JSON. */
const newIntent: fc.Arbitrary<Omit<NewPaymentIntent, 'referenceId'>> = fc.record({
  endpoint: fc.constantFrom('deposit' as const, 'withdraw' as const),
  body: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }),
  merchant: optionalText,
  recordedBy: optionalText,
  userEmail: optionalText,
  keyFingerprint: optionalText,
  metadata: fc.option(
    fc.dictionary(fc.string({ minLength: 1, maxLength: 10 }), fc.string({ maxLength: 20 }), { maxKeys: 4 }),
    { nil: undefined },
  ),
  sendingLeaseMs: fc.option(fc.integer({ min: 1, max: 3_600_000 }), { nil: undefined }),
});

const clients = () =>
  [
    ['node-redis', () => createRedisJournal({ client: redis.nodeRedis, prefix: freshPrefix() })],
    ['ioredis', () => createRedisJournal({ client: redis.ioredis, prefix: freshPrefix() })],
  ] as const;

describe('a fresh record answers the intent the store holds', () => {
  for (const [name, make] of clients()) {
    test(`${name}: the built intent equals what get reads back, field for field, for any intent`, async () => {
      const journal = make();
      await fc.assert(
        fc.asyncProperty(newIntent, async (fields) => {
          const intent = { ...fields, referenceId: `ref-${++references}` };
          const recorded = await journal.record(intent);
          expect(recorded).toStrictEqual(await journal.get(intent.referenceId));
          expect(recorded.records).toBe(1);
          expect(recorded.state).toBe('sending');
        }),
        { numRuns: 60 },
      );
    });
  }

  test('the lease, the key fingerprint and metadata are present exactly when stored', async () => {
    const journal = createRedisJournal({ client: redis.nodeRedis, prefix: freshPrefix() });
    const body = { reference_id: 'x', amount: 1, currency: 'KES', email: 'bob@example.com' };
    const leased = await journal.record({
      referenceId: 'leased',
      endpoint: 'withdraw',
      body,
      merchant: 'mw1:m',
      recordedBy: 'call-1',
      sendingLeaseMs: 30_000,
      keyFingerprint: 'mk1:k',
      metadata: { orderId: 'o-1' },
    });
    expect(Date.parse(leased.leaseUntil as string) - Date.parse(leased.createdAt)).toBe(30_000);
    expect(leased).toMatchObject({ keyFingerprint: 'mk1:k', metadata: { orderId: 'o-1' }, checks: 0 });
    expect(leased.createdAt).toBe(leased.updatedAt);
    expect(leased).toStrictEqual(await journal.get('leased'));

    const bare = await journal.record({
      referenceId: 'bare',
      endpoint: 'deposit',
      body,
      sendingLeaseMs: 30_000,
    });
    expect('leaseUntil' in bare).toBe(false);
    expect('keyFingerprint' in bare).toBe(false);
    expect(bare.metadata).toBeUndefined();
    expect(bare).toStrictEqual(await journal.get('bare'));
  });

  test('the body is a copy the caller may change without changing a later answer', async () => {
    const journal = createRedisJournal({ client: redis.nodeRedis, prefix: freshPrefix() });
    const body = { amount: 1, nested: { a: 1 } };
    const recorded = await journal.record({ referenceId: 'copy', endpoint: 'deposit', body });
    expect(recorded.body).not.toBe(body);
    (recorded.body.nested as { a: number }).a = 2;
    expect((await journal.get('copy'))?.body).toEqual({ amount: 1, nested: { a: 1 } });
  });
});

describe('updates and later records answer the stored intent', () => {
  for (const [name, make] of clients()) {
    test(`${name}: a second record counts itself and answers what get reads`, async () => {
      const journal: PaymentJournal = make();
      const intent = {
        referenceId: 'again',
        endpoint: 'withdraw' as const,
        body: { amount: 5 },
        merchant: 'mw1:m',
        recordedBy: 'call-1',
        sendingLeaseMs: 30_000,
        metadata: { orderId: 'o-2' },
      };
      const first = await journal.record(intent);
      const second = await journal.record({ ...intent, recordedBy: 'call-2', body: { amount: 6 } });
      expect(second).toStrictEqual({ ...first, records: 2 });
      expect(second).toStrictEqual(await journal.get('again'));
    });

    test(`${name}: an update answers the intent as get reads it after`, async () => {
      const journal: PaymentJournal = make();
      await journal.record({
        referenceId: 'moved',
        endpoint: 'withdraw',
        body: { amount: 5 },
        recordedBy: 'call-1',
        sendingLeaseMs: 30_000,
        keyFingerprint: 'mk1:k',
      });
      const updated = await journal.update('moved', {
        state: 'completed',
        transactionId: 'tx-1',
        transactionStatus: 'completed',
        settledBy: 'answer',
      });
      expect(updated).toMatchObject({ state: 'completed', transactionId: 'tx-1', settledBy: 'answer' });
      expect('leaseUntil' in (updated ?? {})).toBe(false);
      expect(updated).toStrictEqual(await journal.get('moved'));
      expect(await journal.update('missing', { state: 'refused' })).toBeUndefined();
    });
  }
});

describe('updates answer the intent under the key as it is now', () => {
  const intent = (referenceId: string, amount: number, recordedBy: string) => ({
    referenceId,
    endpoint: 'withdraw' as const,
    body: { amount },
    merchant: 'mw1:m',
    recordedBy,
    sendingLeaseMs: 30_000,
    metadata: { orderId: `o-${amount}` },
  });

  for (const [name, make] of clients()) {
    test(`${name}: an intent recreated under its key by another journal is answered whole, as stored now`, async () => {
      const prefix = freshPrefix();
      const options = name === 'node-redis' ? { client: redis.nodeRedis } : { client: redis.ioredis };
      const first = createRedisJournal({ ...options, prefix });
      const second = createRedisJournal({ ...options, prefix });
      await first.record(intent('again', 1, 'call-1'));
      await redis.nodeRedis.del(`${prefix}intent:again`);
      await second.record(intent('again', 2, 'call-2'));
      const updated = await first.update('again', { state: 'unknown', reason: 'timeout' });
      expect(updated).toStrictEqual(await second.get('again'));
      expect(updated).toMatchObject({
        body: { amount: 2 },
        recordedBy: 'call-2',
        metadata: { orderId: 'o-2' },
      });
      // A second update of it answers it as stored too.
      expect(await first.update('again', { state: 'refused' })).toStrictEqual(await second.get('again'));
    });

    test(`${name}: concurrent updates of one intent each answer it whole and right`, async () => {
      const journal = make();
      await journal.record(intent('both', 3, 'call-1'));
      const [accepted, completed, unknown] = await Promise.all([
        journal.update('both', { state: 'accepted', transactionId: 'tx-3', transactionStatus: 'pending' }),
        journal.update('both', { state: 'completed', transactionStatus: 'completed', settledBy: 'answer' }),
        journal.update('both', { state: 'unknown', reason: 'later' }),
      ]);
      for (const answer of [accepted, completed, unknown]) {
        expect(answer).toMatchObject({ referenceId: 'both', body: { amount: 3 }, recordedBy: 'call-1' });
        expect(answer?.metadata).toEqual({ orderId: 'o-3' });
      }
      expect(unknown).toStrictEqual(await journal.get('both'));
      // One more update after the definite outcome answers it as get reads it.
      expect(await journal.update('both', { reason: 'again' })).toStrictEqual(await journal.get('both'));
    });
  }
});
