import { describe, expect, test } from 'vitest';
import {
  dedupeConformanceChecks,
  journalConformanceChecks,
  queryConformanceChecks,
  sweepConformanceChecks,
} from '../../../src/conformance/index.js';
import { WalletConfigError } from '../../../src/index.js';
import { createRedisDedupeStore, createRedisJournal } from '../../../src/stores/redis/index.js';
import { useRedisClients } from './redis-clients.js';

const redis = useRedisClients();
let prefixes = 0;
const freshPrefix = () => `check-${++prefixes}:`;

describe('the Redis journal passes the journal conformance suite', () => {
  for (const check of journalConformanceChecks(() =>
    createRedisJournal({ client: redis.nodeRedis, prefix: freshPrefix() }),
  )) {
    test(check.name, check.run);
  }
});

describe('the Redis journal passes the query checks through node-redis and ioredis', () => {
  for (const check of queryConformanceChecks(() =>
    createRedisJournal({ client: redis.nodeRedis, prefix: freshPrefix() }),
  )) {
    test(`node-redis: ${check.name}`, check.run);
  }
  for (const check of queryConformanceChecks(() =>
    createRedisJournal({ client: redis.ioredis, prefix: freshPrefix() }),
  )) {
    test(`ioredis: ${check.name}`, check.run);
  }
});

describe('the Redis journal passes the settlement and sweeper checks through node-redis and ioredis', () => {
  for (const check of sweepConformanceChecks(() =>
    createRedisJournal({ client: redis.nodeRedis, prefix: freshPrefix() }),
  )) {
    test(`node-redis: ${check.name}`, check.run);
  }
  for (const check of sweepConformanceChecks(() =>
    createRedisJournal({ client: redis.ioredis, prefix: freshPrefix() }),
  )) {
    test(`ioredis: ${check.name}`, check.run);
  }
});

describe('the Redis dedupe store passes the dedupe conformance suite', () => {
  const factory = ({ ttlMs }: { ttlMs: number }) =>
    createRedisDedupeStore({ client: redis.nodeRedis, ttlMs, prefix: freshPrefix() });
  for (const check of dedupeConformanceChecks(factory)) test(check.name, check.run);
});

describe('through an ioredis client, the Redis adapters pass both conformance suites', () => {
  for (const check of journalConformanceChecks(() =>
    createRedisJournal({ client: redis.ioredis, prefix: freshPrefix() }),
  )) {
    test(`journal: ${check.name}`, check.run);
  }
  const factory = ({ ttlMs }: { ttlMs: number }) =>
    createRedisDedupeStore({ client: redis.ioredis, ttlMs, prefix: freshPrefix() });
  for (const check of dedupeConformanceChecks(factory)) test(`dedupe: ${check.name}`, check.run);
});

describe('Redis set-up', () => {
  test('a claim holds the key for its lease, and completing it for the time to live', async () => {
    const store = createRedisDedupeStore({ client: redis.nodeRedis, ttlMs: 600_000, prefix: 'ttl:' });
    const claim = await store.claim('transaction:tx-1:completed', 60_000);
    const leased = await redis.nodeRedis.pTTL('ttl:transaction:tx-1:completed');
    expect(leased).toBeGreaterThan(50_000);
    expect(leased).toBeLessThanOrEqual(60_000);
    await store.complete?.('transaction:tx-1:completed', (claim as { lease: string }).lease);
    expect(await redis.nodeRedis.get('ttl:transaction:tx-1:completed')).toBe('done');
    expect(await redis.nodeRedis.pTTL('ttl:transaction:tx-1:completed')).toBeGreaterThan(500_000);
  });

  test('a key claimed before leases existed reads as processed', async () => {
    const store = createRedisDedupeStore({ client: redis.nodeRedis, ttlMs: 60_000, prefix: 'old:' });
    await redis.nodeRedis.set('old:transaction:tx-2:completed', '1', { PX: 60_000 });
    expect(await store.claim('transaction:tx-2:completed', 1_000)).toEqual({ outcome: 'duplicate' });
  });

  test("intents an earlier version left 'applied' are renamed by outcome on first use, and one written later reads as its outcome", async () => {
    const prefix = freshPrefix();
    // The hashes and state set an earlier version wrote: 1,200 accepted payments, two batches and more.
    const outcomes = ['completed', 'failed', 'pending', undefined] as const;
    const legacy = redis.nodeRedis.multi();
    for (let n = 0; n < 1_200; n++) {
      const status = outcomes[n % outcomes.length];
      legacy.hSet(`${prefix}intent:old-${n}`, {
        referenceId: `old-${n}`,
        endpoint: 'withdraw',
        body: '{}',
        state: 'applied',
        seq: String(n + 1),
        records: '1',
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
        ...(status === undefined ? {} : { transactionStatus: status, transactionId: `tx-${n}` }),
      });
      legacy.zAdd(`${prefix}state:applied`, { score: n + 1, value: `old-${n}` });
    }
    await legacy.exec();
    const journal = createRedisJournal({ client: redis.ioredis, prefix });
    expect(await journal.get('old-0')).toMatchObject({ state: 'completed', transactionStatus: 'completed' });
    const counts = Object.fromEntries(
      await Promise.all(
        ['accepted', 'completed', 'failed'].map(async (state) => [
          state,
          await redis.nodeRedis.zCard(`${prefix}state:${state}`),
        ]),
      ),
    );
    expect(counts).toEqual({ accepted: 600, completed: 300, failed: 300 });
    expect(await redis.nodeRedis.exists(`${prefix}state:applied`)).toBe(0);
    expect((await journal.list('failed', { limit: 2 })).map((one) => one.referenceId)).toEqual([
      'old-1',
      'old-5',
    ]);
    expect(await redis.nodeRedis.hGet(`${prefix}intent:old-2`, 'state')).toBe('accepted');
    // Renamed as by an update, each joins the due set: the pending ones with an id are swept.
    expect(await redis.nodeRedis.zCard(`${prefix}due`)).toBe(1_200);
    const swept = await journal.claimDue?.({
      lease: 'sweeper',
      leaseMs: 60_000,
      limit: 1_000,
      merchant: undefined,
      sendingGraceMs: 60_000,
      firstCheckMs: 0,
      stuckAfterMs: 10 * 365 * 24 * 3_600_000,
      settle: false,
    });
    expect(swept?.map((intent) => intent.referenceId)).toHaveLength(300);
    expect(new Set(swept?.map((intent) => intent.transactionStatus))).toEqual(new Set(['pending']));
    // And the set by recording time has them, read from their ISO dates.
    const page = await journal.list({ since: '2026-01-01T00:00:00.000Z', until: '2026-01-01T00:00:01.000Z' });
    expect(page.intents.length).toBeGreaterThan(0);
    expect(await redis.nodeRedis.hGet(`${prefix}intent:old-7`, 'createdMs')).toBe(
      String(Date.parse('2026-01-01T00:00:00.000Z')),
    );

    // An earlier version still running writes 'applied' after the rename: read and updated by outcome.
    await redis.nodeRedis.hSet(`${prefix}intent:old-2`, 'state', 'applied');
    await redis.nodeRedis.zRem(`${prefix}state:accepted`, 'old-2');
    await redis.nodeRedis.zAdd(`${prefix}state:applied`, { score: 3, value: 'old-2' });
    expect(await journal.get('old-2')).toMatchObject({ state: 'accepted', transactionStatus: 'pending' });
    await journal.update('old-2', { state: 'refused', reason: 'late refusal' });
    expect(await journal.get('old-2')).toMatchObject({ state: 'accepted' });
    await journal.update('old-2', { state: 'completed', transactionStatus: 'completed' });
    expect(await journal.get('old-2')).toMatchObject({ state: 'completed' });
    expect(await redis.nodeRedis.zScore(`${prefix}state:completed`, 'old-2')).toBe(3);
    expect(await redis.nodeRedis.exists(`${prefix}state:applied`)).toBe(0);
  });

  test("another merchant's due intents never fill a sweeper's window: its own behind them are claimed", async () => {
    const journal = createRedisJournal({ client: redis.nodeRedis, prefix: freshPrefix() });
    // 450 intents of another merchant, due for its sweeper (which is down), then one of ours.
    for (let n = 0; n < 450; n++) {
      await journal.record({
        referenceId: `theirs-${n}`,
        endpoint: 'withdraw',
        body: {},
        merchant: 'mw1:them',
      });
      await journal.update(`theirs-${n}`, { state: 'unknown' });
    }
    await journal.record({ referenceId: 'mine', endpoint: 'withdraw', body: {}, merchant: 'mw1:me' });
    await journal.update('mine', { state: 'unknown' });
    const query = {
      leaseMs: 60_000,
      limit: 10,
      merchant: 'mw1:me',
      sendingGraceMs: 60_000,
      firstCheckMs: 60_000,
      stuckAfterMs: 3_600_000,
      settle: true,
    };
    const claimed: string[] = [];
    for (let pass = 0; pass < 20 && claimed.length === 0; pass++) {
      const intents = (await journal.claimDue?.({ ...query, lease: `pass-${pass}` })) ?? [];
      claimed.push(...intents.map((intent) => intent.referenceId));
    }
    expect(claimed).toEqual(['mine']);
    // Theirs are still due, for their own sweeper.
    const theirs = await journal.claimDue?.({ ...query, lease: 'them', merchant: 'mw1:them', limit: 1_000 });
    expect(theirs).toHaveLength(450);
  });

  test('bad adapter arguments are WalletConfigErrors naming them', () => {
    const cases: [() => unknown, string][] = [
      [() => createRedisJournal({ client: {} as never }), 'client'],
      [() => createRedisJournal({ client: redis.nodeRedis, prefix: 5 as unknown as string }), 'prefix'],
      [() => createRedisDedupeStore({ client: redis.nodeRedis, ttlMs: 1.5 }), 'ttlMs'],
      [() => createRedisDedupeStore(undefined as never), 'createRedisDedupeStore'],
    ];
    for (const [make, option] of cases) {
      expect(make).toThrow(WalletConfigError);
      expect(make).toThrow(new RegExp(`^${option}:`));
    }
  });
});
