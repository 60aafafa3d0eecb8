import { Redis as IoRedis } from 'ioredis';
import { createCluster } from 'redis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  dedupeConformanceChecks,
  journalConformanceChecks,
  sweepConformanceChecks,
  tokenStoreConformanceChecks,
} from '../../../src/conformance/index.js';
import {
  createRedisDedupeStore,
  createRedisJournal,
  createRedisTokenStore,
} from '../../../src/stores/redis/index.js';
import type { DedupeClaim } from '../../../src/webhooks/dedupe.js';
import { type RunningCluster, startRedisCluster } from './cluster.js';

let cluster: RunningCluster;
let nodeRedis: ReturnType<typeof createCluster>;
let ioredis: InstanceType<typeof IoRedis.Cluster>;
let prefixes = 0;
// Hash-tagged, as a cluster requires of the journal; each check gets a fresh one.
const freshPrefix = () => `{cluster-check-${++prefixes}}:`;

beforeAll(async () => {
  cluster = await startRedisCluster();
  nodeRedis = createCluster({ rootNodes: cluster.urls.map((url) => ({ url })) });
  nodeRedis.on('error', () => {});
  await nodeRedis.connect();
  ioredis = new IoRedis.Cluster(
    cluster.nodes.map(({ port }) => ({ host: '127.0.0.1', port })),
    {
      lazyConnect: true,
    },
  );
  await ioredis.connect();
});

afterAll(async () => {
  await nodeRedis?.close();
  ioredis?.disconnect();
  await cluster?.stop();
});

describe('on Redis Cluster through node-redis createCluster(), both conformance suites pass', () => {
  for (const check of journalConformanceChecks(() =>
    createRedisJournal({ client: nodeRedis, prefix: freshPrefix() }),
  )) {
    test(`journal: ${check.name}`, check.run);
  }
  const factory = ({ ttlMs }: { ttlMs: number }) =>
    createRedisDedupeStore({ client: nodeRedis, ttlMs, prefix: `dedupe-${++prefixes}:` });
  for (const check of dedupeConformanceChecks(factory)) test(`dedupe: ${check.name}`, check.run);
});

describe('on Redis Cluster through ioredis Redis.Cluster, both conformance suites pass', () => {
  for (const check of journalConformanceChecks(() =>
    createRedisJournal({ client: ioredis, prefix: freshPrefix() }),
  )) {
    test(`journal: ${check.name}`, check.run);
  }
  const factory = ({ ttlMs }: { ttlMs: number }) =>
    createRedisDedupeStore({ client: ioredis, ttlMs, prefix: `dedupe-${++prefixes}:` });
  for (const check of dedupeConformanceChecks(factory)) test(`dedupe: ${check.name}`, check.run);
});

describe('the default prefixes work on a cluster with both clients', () => {
  const clients = () =>
    [
      ['node-redis', nodeRedis],
      ['ioredis', ioredis],
    ] as const;

  test('a journal left at its default prefix records, updates, finds by transaction id and lists', async () => {
    for (const [name, client] of clients()) {
      const journal = createRedisJournal({ client });
      const referenceId = `default-${name}`;
      await journal.record({ referenceId, endpoint: 'withdraw', body: { amount: 5 } });
      await journal.update(referenceId, { state: 'unknown', transactionId: `tx-${name}` });
      await journal.updateByTransactionId(`tx-${name}`, {
        state: 'completed',
        transactionStatus: 'completed',
      });
      expect(await journal.get(referenceId)).toMatchObject({
        state: 'completed',
        transactionStatus: 'completed',
      });
      expect((await journal.list('completed')).map((one) => one.referenceId)).toContain(referenceId);
    }
    const key = '{merchant-wallet:journal}:intent:default-ioredis';
    expect(await nodeRedis.sendCommand(key, false, ['HGET', key, 'state'])).toBe('completed');
  });

  test('a dedupe store left at its default prefix claims once, completes, and claims again after release', async () => {
    for (const [name, client] of clients()) {
      const store = createRedisDedupeStore({ client, ttlMs: 60_000 });
      const keys = Array.from({ length: 12 }, (_, n) => `transaction:tx-${name}-${n}:completed`);
      const claims = (await Promise.all(keys.map((key) => store.claim(key, 60_000)))) as DedupeClaim[];
      expect(claims.map((claim) => claim.outcome)).toEqual(keys.map(() => 'claimed'));
      const again = (await Promise.all(keys.map((key) => store.claim(key, 60_000)))) as DedupeClaim[];
      expect(again.map((claim) => claim.outcome)).toEqual(keys.map(() => 'in_progress'));
      const leases = claims.map((claim) => (claim as { lease: string }).lease);
      await Promise.all(keys.slice(1).map((key, n) => store.complete?.(key, leases[n + 1] as string)));
      await store.release?.(keys[0] as string, leases[0] as string);
      expect(((await store.claim(keys[0] as string, 60_000)) as DedupeClaim).outcome).toBe('claimed');
      expect(((await store.claim(keys[1] as string, 60_000)) as DedupeClaim).outcome).toBe('duplicate');
    }
  });

  test('a journal prefix without a hash tag is refused at construction on both cluster clients', () => {
    for (const [, client] of clients()) {
      expect(() => createRedisJournal({ client, prefix: 'merchant-wallet:journal:' })).toThrow(
        /^prefix: .*no hash tag/,
      );
    }
  });
});

describe('on Redis Cluster, the token store passes the token store conformance suite with both clients', () => {
  for (const check of tokenStoreConformanceChecks(() =>
    createRedisTokenStore({ client: nodeRedis, prefix: freshPrefix() }),
  )) {
    test(`node-redis: ${check.name}`, check.run);
  }
  for (const check of tokenStoreConformanceChecks(() =>
    createRedisTokenStore({ client: ioredis, prefix: freshPrefix() }),
  )) {
    test(`ioredis: ${check.name}`, check.run);
  }
});

describe('on Redis Cluster, the journal passes the settlement and sweeper checks with both clients', () => {
  for (const check of sweepConformanceChecks(() =>
    createRedisJournal({ client: nodeRedis, prefix: freshPrefix() }),
  )) {
    test(`node-redis: ${check.name}`, check.run);
  }
  for (const check of sweepConformanceChecks(() =>
    createRedisJournal({ client: ioredis, prefix: freshPrefix() }),
  )) {
    test(`ioredis: ${check.name}`, check.run);
  }
});
