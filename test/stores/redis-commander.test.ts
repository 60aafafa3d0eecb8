import { Redis as IoRedis } from 'ioredis';
import { createClient, createCluster } from 'redis';
import { describe, expect, test } from 'vitest';
import { WalletConfigError } from '../../src/errors.js';
import { PAYMENT_INTENT_STATES } from '../../src/journal/types.js';
import { redisCommander } from '../../src/stores/redis/commander.js';
import {
  createRedisDedupeStore,
  createRedisJournal,
  migrateRedisJournalPrefix,
} from '../../src/stores/redis/index.js';
import { INTENT_FIELDS } from '../../src/stores/redis/intent-fields.js';
import { hashTagOf } from '../../src/stores/redis/prefix.js';
import { choosePubSubMode } from '../../src/stores/redis/pubsub.js';

/** A stand-in for createCluster()'s object that records what it is asked to send, and where. */
function fakeNodeRedisCluster(answer: (args: string[]) => unknown = () => null) {
  const sent: { firstKey: string | undefined; isReadonly: boolean | undefined; args: string[] }[] = [];
  return {
    sent,
    masters: [],
    nodeClient: () => undefined,
    async sendCommand(firstKey: string | undefined, isReadonly: boolean | undefined, args: string[]) {
      sent.push({ firstKey, isReadonly, args });
      return answer(args);
    },
  };
}

/** An intent as the journal's scripts answer it: its values in the order of INTENT_FIELDS. */
const stored: Record<string, string> = {
  referenceId: 'r',
  endpoint: 'deposit',
  body: '{}',
  state: 'sending',
};
const intentReply = INTENT_FIELDS.map((field) => stored[field] ?? null);
/** A fake's answer to scripts: none left to rename on first use, else the intent. */
const scriptReply = (args: string[]) => (args[3]?.endsWith('state:applied') ? 0 : intentReply);
const noScript = () => Object.assign(new Error('NOSCRIPT No matching script. Please use EVAL.'));

describe('the Redis command sender', () => {
  test('tells apart the four real clients, without connecting', () => {
    const single = createClient();
    const cluster = createCluster({ rootNodes: [{ url: 'redis://127.0.0.1:1' }] });
    const io = new IoRedis({ lazyConnect: true });
    const ioCluster = new IoRedis.Cluster([{ host: '127.0.0.1', port: 1 }], { lazyConnect: true });
    try {
      expect(redisCommander('client', single)).toMatchObject({ kind: 'node-redis', cluster: false });
      expect(redisCommander('client', cluster)).toMatchObject({ kind: 'node-redis-cluster', cluster: true });
      expect(redisCommander('client', io)).toMatchObject({ kind: 'ioredis', cluster: false });
      expect(redisCommander('client', ioCluster)).toMatchObject({ kind: 'ioredis-cluster', cluster: true });
    } finally {
      io.disconnect();
      ioCluster.disconnect();
    }
  });

  test('a client it cannot drive is refused at construction with a WalletConfigError naming client', () => {
    const wrongCluster = { masters: [], nodeClient: () => undefined, sendCommand: (args: string[]) => args };
    const clusterWithoutSend = { masters: [], nodeClient: () => undefined };
    for (const client of [{}, null, 'redis://x', 42, wrongCluster, clusterWithoutSend, { sendCommand: 1 }]) {
      for (const make of [
        () => createRedisJournal({ client: client as never }),
        () => createRedisDedupeStore({ client: client as never, ttlMs: 1000 }),
      ]) {
        expect(make).toThrow(WalletConfigError);
        expect(make).toThrow(/^client: /);
      }
    }
  });

  test('on a node-redis cluster, each journal command goes to its key and each script to its first key, from a master', async () => {
    const fake = fakeNodeRedisCluster((args) => (args[0] === 'EVALSHA' ? scriptReply(args) : 0));
    const journal = createRedisJournal({ client: fake, prefix: '{w}:' });
    await journal.get('r');
    await journal.update('r', { state: 'accepted' });
    const [upgrade, read, time, script] = fake.sent;
    // On first use, intents an earlier version left 'applied' are renamed, from that state's set.
    expect(upgrade?.firstKey).toBe('{w}:state:applied');
    // Before its first write, the journal reads the server's clock, routed by a key of its own.
    expect(time?.firstKey).toBe('{w}:due');
    expect(read).toEqual({
      firstKey: '{w}:intent:r',
      isReadonly: false,
      args: ['HMGET', '{w}:intent:r', ...INTENT_FIELDS],
    });
    expect(script?.firstKey).toBe('{w}:intent:r');
    expect(script?.args.slice(0, 4)).toEqual([
      'EVALSHA',
      expect.stringMatching(/^[0-9a-f]{40}$/),
      // The intent, the transaction index, one set per state and the earlier 'applied', and the due set.
      String(4 + PAYMENT_INTENT_STATES.length),
      '{w}:intent:r',
    ]);
  });

  test('a script the node does not hold yet is sent in full once EVALSHA answers NOSCRIPT', async () => {
    const fake = fakeNodeRedisCluster((args) => {
      if (args[0] === 'EVALSHA') throw noScript();
      return args[0] === 'EVAL' ? intentReply : 0;
    });
    const journal = createRedisJournal({ client: fake, prefix: '{w}:' });
    await journal.record({ referenceId: 'r', endpoint: 'deposit', body: {} });
    const commands = fake.sent.map(({ args }) => args[0]);
    // The first-use upgrade, the server's clock, then the record: each sent in full once.
    expect(commands).toEqual(['EVALSHA', 'EVAL', 'EVALSHA', 'EVAL', 'EVALSHA', 'EVAL']);
    expect(fake.sent[3]?.args[1]).toContain("redis.call('TIME')");
    expect(fake.sent[5]?.args[1]).toContain("redis.call('INCR', KEYS[2])");
  });

  test('any other script error is passed on, without a second send', async () => {
    const fake = fakeNodeRedisCluster((args) => {
      if (args[0] === 'EVALSHA') throw new Error('CLUSTERDOWN The cluster is down');
      return 0;
    });
    const journal = createRedisJournal({ client: fake, prefix: '{w}:' });
    await expect(journal.record({ referenceId: 'r', endpoint: 'deposit', body: {} })).rejects.toThrow(
      /CLUSTERDOWN/,
    );
    expect(fake.sent.map(({ args }) => args[0])).toEqual(['EVALSHA']);
  });
});

describe('key prefixes on a cluster', () => {
  test('hashTagOf reads the hash tag as Redis Cluster does', () => {
    expect(hashTagOf('{merchant-wallet:journal}:intent:x')).toBe('merchant-wallet:journal');
    expect(hashTagOf('a{b}c{d}')).toBe('b');
    expect(hashTagOf('merchant-wallet:journal:')).toBeUndefined();
    expect(hashTagOf('{}x{y}')).toBeUndefined();
    expect(hashTagOf('{open:')).toBeUndefined();
  });

  test('a journal prefix without a hash tag is refused on a cluster, naming prefix and saying why', () => {
    for (const prefix of ['wallet:journal:', '{}wallet:', 'wallet{:']) {
      const make = () => createRedisJournal({ client: fakeNodeRedisCluster(), prefix });
      expect(make).toThrow(WalletConfigError);
      expect(make).toThrow(/^prefix: .*no hash tag.*share a slot/);
    }
  });

  test('the default prefixes, and a dedupe prefix without a tag, are accepted on a cluster', () => {
    expect(() => createRedisJournal({ client: fakeNodeRedisCluster() })).not.toThrow();
    expect(() => createRedisDedupeStore({ client: fakeNodeRedisCluster(), ttlMs: 1000 })).not.toThrow();
    expect(() =>
      createRedisDedupeStore({ client: fakeNodeRedisCluster(), ttlMs: 1000, prefix: 'hooks:' }),
    ).not.toThrow();
  });

  test('the default journal prefix carries one hash tag', async () => {
    const fake = fakeNodeRedisCluster((args) => (args[0] === 'EVALSHA' ? scriptReply(args) : 0));
    await createRedisJournal({ client: fake }).record({ referenceId: 'r', endpoint: 'deposit', body: {} });
    const record = fake.sent.find(({ args }) => args[0] === 'EVALSHA' && args[3]?.includes('intent:'));
    const keys = record?.args.slice(3, 6) ?? [];
    expect(keys).toHaveLength(3);
    expect(new Set(keys.map(hashTagOf))).toEqual(new Set(['merchant-wallet:journal']));
  });
});

test('migrateRedisJournalPrefix refuses a cluster client, naming client, before sending anything', async () => {
  const fake = fakeNodeRedisCluster();
  await expect(migrateRedisJournalPrefix({ client: fake })).rejects.toThrow(/^client: .*single-node/);
  expect(fake.sent).toEqual([]);
});

describe('pub/sub on a cluster', () => {
  test('sharded pub/sub is chosen only on a cluster whose client and server (7+) support it', () => {
    expect(choosePubSubMode({ cluster: true, shardedPubSub: true }, '7.0.15')).toBe('sharded');
    expect(choosePubSubMode({ cluster: true, shardedPubSub: true }, '6.2.14')).toBe('plain');
    expect(choosePubSubMode({ cluster: true, shardedPubSub: false }, '7.2.0')).toBe('plain');
    expect(choosePubSubMode({ cluster: false, shardedPubSub: false }, '7.2.0')).toBe('plain');
  });

  test('an ioredis cluster supports sharded channels only when built with shardedSubscribers', () => {
    const plain = new IoRedis.Cluster([{ host: '127.0.0.1', port: 1 }], { lazyConnect: true });
    const sharded = new IoRedis.Cluster([{ host: '127.0.0.1', port: 1 }], {
      lazyConnect: true,
      shardedSubscribers: true,
    });
    try {
      expect(redisCommander('client', plain).shardedPubSub).toBe(false);
      expect(redisCommander('client', sharded).shardedPubSub).toBe(true);
      const nodeRedis = createCluster({ rootNodes: [{ url: 'redis://127.0.0.1:1' }] });
      expect(redisCommander('client', nodeRedis).shardedPubSub).toBe(true);
    } finally {
      plain.disconnect();
      sharded.disconnect();
    }
  });
});
