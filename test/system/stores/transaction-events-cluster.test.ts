import { Redis as IoRedis } from 'ioredis';
import { createClient, createCluster } from 'redis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { waitForTransaction } from '../../../src/polling/poll.js';
import type { TransactionResult } from '../../../src/schemas/responses.js';
import type { RedisClientLike } from '../../../src/stores/redis/commander.js';
import { createRedisTransactionEvents } from '../../../src/stores/redis/index.js';
import { type RunningCluster, startRedisCluster } from './cluster.js';

let cluster: RunningCluster;
const closers: (() => Promise<unknown>)[] = [];
let channels = 0;

beforeAll(async () => {
  cluster = await startRedisCluster();
});

afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
  await cluster?.stop();
});

const rootNodes = () => cluster.nodes.map(({ port }) => ({ host: '127.0.0.1', port }));

const clients: [string, 'sharded' | 'plain', () => Promise<RedisClientLike>][] = [
  [
    'node-redis createCluster()',
    'sharded',
    async () => {
      const client = createCluster({ rootNodes: cluster.urls.map((url) => ({ url })) });
      client.on('error', () => {});
      await client.connect();
      closers.push(() => client.close());
      return client;
    },
  ],
  [
    'ioredis Redis.Cluster',
    'plain',
    async () => {
      const client = new IoRedis.Cluster(rootNodes());
      closers.push(async () => client.disconnect());
      return client;
    },
  ],
  [
    'ioredis Redis.Cluster with shardedSubscribers',
    'sharded',
    async () => {
      const client = new IoRedis.Cluster(rootNodes(), { shardedSubscribers: true });
      closers.push(async () => client.disconnect());
      return client;
    },
  ],
];

/** How many connections subscribe to `channel` on each master, as [plain, sharded] totals. */
async function subscribers(channel: string): Promise<[number, number]> {
  let plain = 0;
  let sharded = 0;
  for (const url of cluster.urls) {
    const node = await createClient({ url }).connect();
    plain += Number(((await node.sendCommand(['PUBSUB', 'NUMSUB', channel])) as [string, number])[1]);
    sharded += Number(((await node.sendCommand(['PUBSUB', 'SHARDNUMSUB', channel])) as [string, number])[1]);
    await node.close();
  }
  return [plain, sharded];
}

describe.each(clients)('on Redis Cluster through %s', (_, mode, connect) => {
  test(`instances share events over ${mode} pub/sub: a verified event on A ends a wait on B`, async () => {
    const channel = `cluster-events-${++channels}`;
    const a = await createRedisTransactionEvents({ client: await connect(), channel });
    const b = await createRedisTransactionEvents({ client: await connect(), channel });
    closers.push(
      () => a.close(),
      () => b.close(),
    );
    expect(await subscribers(channel)).toEqual(mode === 'sharded' ? [0, 2] : [2, 0]);

    const id = `tx_cluster_${channels}`;
    const reads: string[] = [];
    const pending = { transaction_id: id, transaction_status: 'pending', amount: '1.00', currency: 'KES' };
    const reader = {
      getTransaction: async (read: string) => {
        reads.push(read);
        return pending as TransactionResult;
      },
    };
    const waiting = waitForTransaction(reader, id, { initialDelayMs: 60_000, maxDelayMs: 60_000, events: b });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const status = { ...pending, transaction_status: 'completed' } as TransactionResult;
    await a.publish({ transaction_id: id }, { verified: true, status });
    expect(await waiting).toEqual(status);
    expect(reads).toEqual([id]);

    await Promise.all([a.close(), b.close()]);
    await expect.poll(() => subscribers(channel)).toEqual([0, 0]);
  });
});
