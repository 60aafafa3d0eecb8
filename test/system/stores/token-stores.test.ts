import { Redis as IoRedis } from 'ioredis';
import pg from 'pg';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { tokenStoreConformanceChecks } from '../../../src/conformance/index.js';
import { createTokenVault, WalletConfigError } from '../../../src/index.js';
import { createPostgresTokenStore, migratePostgres } from '../../../src/stores/postgres/index.js';
import { createRedisTokenStore } from '../../../src/stores/redis/index.js';
import { newKey } from '../../auth/keys.js';
import { type RunningServer, startPostgres, startRedis } from './servers.js';

let postgres: RunningServer;
let redis: RunningServer;
let pool: pg.Pool;
let nodeRedis: ReturnType<typeof createClient>;
let ioredis: IoRedis;
let fresh = 0;

beforeAll(async () => {
  [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  pool = new pg.Pool({ connectionString: postgres.url, max: 10 });
  nodeRedis = createClient({ url: redis.url });
  await nodeRedis.connect();
  ioredis = new IoRedis(redis.url, { lazyConnect: true });
  await ioredis.connect();
});

afterAll(async () => {
  await pool?.end();
  await nodeRedis?.close();
  ioredis?.disconnect();
  await Promise.all([postgres?.stop(), redis?.stop()]);
});

async function freshPostgresStore() {
  fresh += 1;
  const names = { journalTable: `tj_${fresh}`, dedupeTable: `td_${fresh}`, tokenTable: `tokens_${fresh}` };
  await migratePostgres(pool, names);
  return createPostgresTokenStore({ db: pool, table: names.tokenTable });
}

describe('the PostgreSQL token store passes the token store conformance suite', () => {
  for (const check of tokenStoreConformanceChecks(freshPostgresStore)) test(check.name, check.run);
});

describe('the Redis token store passes the token store conformance suite through node-redis', () => {
  const factory = () => createRedisTokenStore({ client: nodeRedis, prefix: `{tokens-${++fresh}}:` });
  for (const check of tokenStoreConformanceChecks(factory)) test(check.name, check.run);
});

describe('the Redis token store passes the token store conformance suite through ioredis', () => {
  const factory = () => createRedisTokenStore({ client: ioredis, prefix: `{tokens-${++fresh}}:` });
  for (const check of tokenStoreConformanceChecks(factory)) test(check.name, check.run);
});

describe('tokens at rest in real stores', () => {
  const TOKEN = 'tok_live_never_in_a_row_9f8e7d';

  test('a PostgreSQL row holds only the sealed token; the default table is made by migratePostgres', async () => {
    await migratePostgres(pool);
    const store = createPostgresTokenStore({ db: pool });
    const vault = createTokenVault({ store, keys: { primary: 'k1', keys: { k1: newKey() } }, appId: 'app' });
    await vault.receive({ user_email: 'row@example.com', token: TOKEN });
    const { rows } = await pool.query(`SELECT key, value FROM merchant_wallet_tokens`);
    const text = JSON.stringify(rows);
    expect(text).toContain('user:row@example.com');
    expect(text).toContain('mwt1.k1.');
    expect(text).not.toContain(TOKEN);
    expect(await vault.tokenFor('row@example.com')).toBe(TOKEN);
    expect(await store.purgeExpired()).toBeGreaterThanOrEqual(0);
  });

  test('a Redis value holds only the sealed token', async () => {
    const vault = createTokenVault({
      store: createRedisTokenStore({ client: nodeRedis }),
      keys: { primary: 'k1', keys: { k1: newKey() } },
      appId: 'app',
    });
    await vault.receive({ user_email: 'row@example.com', token: TOKEN });
    const keys = await nodeRedis.keys('{merchant-wallet:tokens}:*');
    expect(keys).toContain('{merchant-wallet:tokens}:value:user:row@example.com');
    for (const key of keys.filter((name) => name.includes(':value:'))) {
      expect(await nodeRedis.get(key)).not.toContain(TOKEN);
    }
    expect(await vault.tokenFor('row@example.com')).toBe(TOKEN);
  });

  test.each([
    ['node-redis', () => nodeRedis],
    ['ioredis', () => ioredis],
  ] as const)(
    'the Redis index keeps no entry of an expired value after purgeExpired (%s)',
    async (_name, client) => {
      const prefix = `{purge-${++fresh}}:`;
      const store = createRedisTokenStore({ client: client(), prefix });
      for (let at = 0; at < 600; at++) await store.compareAndSet(`authorized:${at}`, undefined, 'note', 1);
      await store.compareAndSet('user:kept@example.com', undefined, 'row');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await nodeRedis.zCard(`${prefix}index`)).toBe(601);
      expect(await store.purgeExpired()).toBe(600);
      expect(await nodeRedis.zRange(`${prefix}index`, 0, -1)).toEqual(['user:kept@example.com']);
    },
  );

  test('bad options name the field', () => {
    expect(() => createPostgresTokenStore({ db: {} as never })).toThrow(WalletConfigError);
    expect(() => createPostgresTokenStore({ db: pool, table: 'bad name;' })).toThrow(/table/);
    expect(() => createRedisTokenStore({ client: {} as never })).toThrow(/client/);
    expect(() => createRedisTokenStore({ client: nodeRedis, prefix: 42 as never })).toThrow(/prefix/);
  });
});
