import { describe, expect, test } from 'vitest';
import { tokenStoreConformanceChecks } from '../../../src/conformance/index.js';
import { createTokenVault, WalletConfigError } from '../../../src/index.js';
import { createPostgresTokenStore, migratePostgres } from '../../../src/stores/postgres/index.js';
import { createRedisTokenStore } from '../../../src/stores/redis/index.js';
import { newKey } from '../../auth/keys.js';
import { usePostgresPool } from './postgres-pool.js';
import { useRedisClients } from './redis-clients.js';

const postgres = usePostgresPool({ max: 10 });
const redis = useRedisClients();
let fresh = 0;

async function freshPostgresStore() {
  fresh += 1;
  const names = { journalTable: `tj_${fresh}`, dedupeTable: `td_${fresh}`, tokenTable: `tokens_${fresh}` };
  await migratePostgres(postgres.pool, names);
  return createPostgresTokenStore({ db: postgres.pool, table: names.tokenTable });
}

describe('the PostgreSQL token store passes the token store conformance suite', () => {
  for (const check of tokenStoreConformanceChecks(freshPostgresStore)) test(check.name, check.run);
});

describe('the Redis token store passes the token store conformance suite through node-redis', () => {
  const factory = () => createRedisTokenStore({ client: redis.nodeRedis, prefix: `{tokens-${++fresh}}:` });
  for (const check of tokenStoreConformanceChecks(factory)) test(check.name, check.run);
});

describe('the Redis token store passes the token store conformance suite through ioredis', () => {
  const factory = () => createRedisTokenStore({ client: redis.ioredis, prefix: `{tokens-${++fresh}}:` });
  for (const check of tokenStoreConformanceChecks(factory)) test(check.name, check.run);
});

describe('tokens at rest in real stores', () => {
  const TOKEN = 'tok_live_never_in_a_row_9f8e7d';

  test('a PostgreSQL row holds only the sealed token; the default table is made by migratePostgres', async () => {
    await migratePostgres(postgres.pool);
    const store = createPostgresTokenStore({ db: postgres.pool });
    const vault = createTokenVault({ store, keys: { primary: 'k1', keys: { k1: newKey() } }, appId: 'app' });
    await vault.receive({ user_email: 'row@example.com', token: TOKEN });
    const { rows } = await postgres.pool.query(`SELECT key, value FROM merchant_wallet_tokens`);
    const text = JSON.stringify(rows);
    expect(text).toContain('user:row@example.com');
    expect(text).toContain('mwt1.k1.');
    expect(text).not.toContain(TOKEN);
    expect(await vault.tokenFor('row@example.com')).toBe(TOKEN);
    expect(await store.purgeExpired()).toBeGreaterThanOrEqual(0);
  });

  test('a Redis value holds only the sealed token', async () => {
    const vault = createTokenVault({
      store: createRedisTokenStore({ client: redis.nodeRedis }),
      keys: { primary: 'k1', keys: { k1: newKey() } },
      appId: 'app',
    });
    await vault.receive({ user_email: 'row@example.com', token: TOKEN });
    const keys = await redis.nodeRedis.keys('{merchant-wallet:tokens}:*');
    expect(keys).toContain('{merchant-wallet:tokens}:value:user:row@example.com');
    for (const key of keys.filter((name) => name.includes(':value:'))) {
      expect(await redis.nodeRedis.get(key)).not.toContain(TOKEN);
    }
    expect(await vault.tokenFor('row@example.com')).toBe(TOKEN);
  });

  test.each([
    ['node-redis', () => redis.nodeRedis],
    ['ioredis', () => redis.ioredis],
  ] as const)(
    'the Redis index keeps no entry of an expired value after purgeExpired (%s)',
    async (_name, client) => {
      const prefix = `{purge-${++fresh}}:`;
      const store = createRedisTokenStore({ client: client(), prefix });
      for (let at = 0; at < 600; at++) await store.compareAndSet(`authorized:${at}`, undefined, 'note', 1);
      await store.compareAndSet('user:kept@example.com', undefined, 'row');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await redis.nodeRedis.zCard(`${prefix}index`)).toBe(601);
      expect(await store.purgeExpired()).toBe(600);
      expect(await redis.nodeRedis.zRange(`${prefix}index`, 0, -1)).toEqual(['user:kept@example.com']);
    },
  );

  test('bad options name the field', () => {
    expect(() => createPostgresTokenStore({ db: {} as never })).toThrow(WalletConfigError);
    expect(() => createPostgresTokenStore({ db: postgres.pool, table: 'bad name;' })).toThrow(/table/);
    expect(() => createRedisTokenStore({ client: {} as never })).toThrow(/client/);
    expect(() => createRedisTokenStore({ client: redis.nodeRedis, prefix: 42 as never })).toThrow(/prefix/);
  });
});
