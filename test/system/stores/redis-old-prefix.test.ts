import { beforeEach, expect, test } from 'vitest';
import { WalletConfigError } from '../../../src/index.js';
import { createRedisJournal, migrateRedisJournalPrefix } from '../../../src/stores/redis/index.js';
import { useRedisClients } from './redis-clients.js';

const OLD = 'merchant-wallet:journal:';
const redis = useRedisClients();

/** A journal as the earlier default left it: two intents, one accepted with a transaction id. */
async function seedOldJournal() {
  const old = createRedisJournal({ client: redis.nodeRedis, prefix: OLD });
  await old.record({ referenceId: 'order-1', endpoint: 'withdraw', body: { amount: 10 } });
  await old.record({ referenceId: 'order-2', endpoint: 'deposit', body: { amount: 20 } });
  await old.update('order-1', { state: 'accepted', transactionId: 'tx-1', transactionStatus: 'pending' });
}

beforeEach(async () => {
  await redis.nodeRedis.flushAll();
});

test('a journal at the default prefix on a Redis holding the old default journal refuses, saying what to do', async () => {
  await seedOldJournal();
  for (const journal of [
    createRedisJournal({ client: redis.nodeRedis }),
    createRedisJournal({ client: redis.ioredis }),
  ]) {
    const failure = journal.record({ referenceId: 'order-3', endpoint: 'withdraw', body: {} });
    await expect(failure).rejects.toThrow(WalletConfigError);
    await expect(failure).rejects.toThrow(/^prefix: .*merchant-wallet:journal:.*migrateRedisJournalPrefix/);
    await expect(journal.list('sending')).rejects.toThrow(/^prefix: /);
  }
  // Nothing was written under the new default while refusing.
  expect(await redis.nodeRedis.keys('{merchant-wallet:journal}:*')).toEqual([]);
  // Passing the old prefix keeps the journal readable as it was.
  const kept = createRedisJournal({ client: redis.nodeRedis, prefix: OLD });
  expect(await kept.get('order-1')).toMatchObject({ state: 'accepted', transactionId: 'tx-1' });
});

test('migrateRedisJournalPrefix moves the old default journal so the default prefix reads all of it', async () => {
  await seedOldJournal();
  const before = await redis.nodeRedis.keys(`${OLD}*`);
  expect(await migrateRedisJournalPrefix({ client: redis.nodeRedis })).toEqual({ moved: before.length });
  expect(await redis.nodeRedis.keys(`${OLD}*`)).toEqual([]);
  const journal = createRedisJournal({ client: redis.ioredis });
  expect(await journal.get('order-1')).toMatchObject({
    state: 'accepted',
    transactionId: 'tx-1',
    body: { amount: 10 },
  });
  expect((await journal.list('sending')).map((one) => one.referenceId)).toEqual(['order-2']);
  await journal.updateByTransactionId('tx-1', { state: 'completed', transactionStatus: 'completed' });
  expect(await journal.get('order-1')).toMatchObject({ transactionStatus: 'completed' });
  // The sequence went along: a new intent is numbered after the old ones.
  await journal.record({ referenceId: 'order-3', endpoint: 'deposit', body: {} });
  expect((await journal.list('sending')).map((one) => one.referenceId)).toEqual(['order-2', 'order-3']);
});

test('a migration cut short is finished by running it again', async () => {
  await seedOldJournal();
  // As if the first run renamed one intent and died: the sequence, moved last, is still old.
  await redis.nodeRedis.rename(`${OLD}intent:order-2`, '{merchant-wallet:journal}:intent:order-2');
  await migrateRedisJournalPrefix({ client: redis.nodeRedis });
  expect(await redis.nodeRedis.keys(`${OLD}*`)).toEqual([]);
  const journal = createRedisJournal({ client: redis.nodeRedis });
  expect((await journal.list('sending')).map((one) => one.referenceId)).toEqual(['order-2']);
});

test('a migration onto a prefix that already holds a journal moves nothing', async () => {
  await seedOldJournal();
  await createRedisJournal({ client: redis.nodeRedis, prefix: '{other}:' }).record({
    referenceId: 'x',
    endpoint: 'deposit',
    body: {},
  });
  const keys = await redis.nodeRedis.keys(`${OLD}*`);
  await expect(migrateRedisJournalPrefix({ client: redis.nodeRedis, to: '{other}:' })).rejects.toThrow(
    /^to: .*already holds/,
  );
  expect((await redis.nodeRedis.keys(`${OLD}*`)).sort()).toEqual(keys.sort());
});

test('bad migration arguments are WalletConfigErrors naming them', async () => {
  const cases: [() => Promise<unknown>, string][] = [
    [() => migrateRedisJournalPrefix({ client: {} as never }), 'client'],
    [() => migrateRedisJournalPrefix({ client: redis.nodeRedis, from: 3 as never }), 'from'],
    [() => migrateRedisJournalPrefix({ client: redis.nodeRedis, to: OLD }), 'to'],
    [() => migrateRedisJournalPrefix({ client: redis.nodeRedis, from: 'a:', to: 'a:b:' }), 'to'],
    [() => migrateRedisJournalPrefix(undefined as never), 'migrateRedisJournalPrefix'],
  ];
  for (const [run, option] of cases) {
    await expect(run()).rejects.toThrow(WalletConfigError);
    await expect(run()).rejects.toThrow(new RegExp(`^${option}:`));
  }
});
