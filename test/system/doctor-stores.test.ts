import pg from 'pg';
import { createClient } from 'redis';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { DoctorConfig } from '../../src/cli/doctor/config.js';
import { runDoctor } from '../../src/cli/doctor/run-doctor.js';
import { createPostgresJournal, migratePostgres } from '../../src/stores/postgres/index.js';
import { createRedisJournal } from '../../src/stores/redis/index.js';
import { type Fixtures, startFixtures } from '../cli/doctor/fixtures.js';
import { usePostgresPool } from './stores/postgres-pool.js';
import { type RunningServer, startRedis } from './stores/servers.js';

let fx: Fixtures;
const postgres = usePostgresPool({ max: 2 });
let redis: RunningServer;
let databases = 0;

beforeAll(async () => {
  [fx, redis] = await Promise.all([startFixtures(), startRedis()]);
});

afterAll(async () => {
  await Promise.all([fx?.close(), redis?.stop()]);
});

/** A database of its own, and its URL. */
async function database(): Promise<{ url: string; pool: pg.Pool }> {
  const name = `doctor_${++databases}`;
  await postgres.pool.query(`CREATE DATABASE ${name}`);
  const url = new URL(postgres.url);
  url.pathname = `/${name}`;
  return { url: url.href, pool: new pg.Pool({ connectionString: url.href, max: 2 }) };
}

async function diagnose(storeUrl: string) {
  const config: DoctorConfig = { ...fx.good, storeUrl };
  const report = await runDoctor(config);
  const row = (id: string) => report.checks.find((check) => check.id === id);
  const failing = report.checks.filter((check) => check.status === 'fail').map((c) => `${c.id}/${c.problem}`);
  expect(JSON.stringify(report)).not.toContain(storeUrl);
  return { report, row, failing };
}

test('a PostgreSQL database never migrated is named by the store-schema check alone', async () => {
  const { url, pool } = await database();
  const { failing, row } = await diagnose(url);
  expect(failing).toEqual(['store-schema/store_not_migrated']);
  expect(row('store-schema')?.detail).toContain("the journal's tables were never migrated");
  expect(row('sweeper')?.status).toBe('skip');
  // The doctor only read: it created no table.
  const tables = await pool.query(`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'`);
  expect(tables.rows[0]).toEqual({ n: 0 });
  await pool.end();
});

test('a PostgreSQL journal at an earlier schema version is named with both versions', async () => {
  const { url, pool } = await database();
  await migratePostgres(pool);
  await pool.query('UPDATE merchant_wallet_schema_versions SET version = 9');
  const { failing, row } = await diagnose(url);
  expect(failing).toEqual(['store-schema/store_not_migrated']);
  expect(row('store-schema')?.detail).toMatch(/schema version 9, this package needs \d+/);
  await pool.end();
});

test('a pending payment no sweeper looked at for two hours is named by the sweeper check alone', async () => {
  const { url, pool } = await database();
  await migratePostgres(pool);
  const journal = createPostgresJournal({ db: pool });
  await journal.record({ referenceId: 'order-9', endpoint: 'deposit', body: { reference_id: 'order-9' } });
  await journal.update('order-9', {
    state: 'accepted',
    transactionId: 'txn_9',
    transactionStatus: 'pending',
  });
  let { failing, row } = await diagnose(url);
  expect(failing).toEqual([]);
  expect(row('sweeper')?.detail).toBe('nothing due in 1 open intent(s): no sign of a stopped sweeper');
  await pool.query(
    "UPDATE merchant_wallet_payment_intents SET created_at = now() - interval '2 hours', updated_at = now() - interval '2 hours'",
  );
  ({ failing, row } = await diagnose(url));
  expect(failing).toEqual(['sweeper/sweeper_stale']);
  expect(row('sweeper')?.detail).toMatch(/^1 intent\(s\) due for more than 15 min/);
  await pool.end();
});

test('a Redis journal under the old prefix is named by the store-schema check alone; a current one passes', async () => {
  const client = await createClient({ url: redis.url }).connect();
  await client.flushAll();
  await createRedisJournal({ client, prefix: 'merchant-wallet:journal:' }).record({
    referenceId: 'order-1',
    endpoint: 'withdraw',
    body: { amount: 10 },
  });
  let { failing } = await diagnose(redis.url);
  expect(failing).toEqual(['store-schema/store_not_migrated']);
  await client.flushAll();
  await createRedisJournal({ client }).record({ referenceId: 'order-2', endpoint: 'withdraw', body: {} });
  ({ failing } = await diagnose(redis.url));
  expect(failing).toEqual([]);
  await client.quit();
});
