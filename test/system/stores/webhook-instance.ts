/**
 * One merchant instance receiving webhooks, for the shared-dedupe system tests: a node:http server
 * whose handler de-duplicates through Redis (`REDIS_URL`) or PostgreSQL (`DATABASE_URL`). Prints
 * `port N`, then `started <id>:<status>` and `processed <id>:<status> by <pid>` per callback. With
 * `HANG=1` its callbacks never end: the process is there to be killed in the middle of one.
 */
import { createServer } from 'node:http';
import pg from 'pg';
import { createClient } from 'redis';
import { createPostgresDedupeStore } from '../../../src/stores/postgres/index.js';
import { createRedisDedupeStore } from '../../../src/stores/redis/index.js';
import { createWebhookHandler, toNodeHandler } from '../../../src/webhooks/index.js';

const leaseMs = Number(process.env.LEASE_MS ?? 120_000);
const hang = process.env.HANG === '1';
const databaseUrl = process.env.DATABASE_URL;
const redis = databaseUrl
  ? undefined
  : await createClient({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' }).connect();
const pool = databaseUrl ? new pg.Pool({ connectionString: databaseUrl, max: 4 }) : undefined;
const dedupe = pool
  ? createPostgresDedupeStore({ db: pool, ttlMs: 60_000, table: process.env.DEDUPE_TABLE ?? 'shared_dedupe' })
  : createRedisDedupeStore({
      client: redis as never,
      ttlMs: 60_000,
      prefix: process.env.PREFIX ?? 'shared-dedupe:',
    });

const handler = createWebhookHandler({
  dedupe,
  leaseMs,
  onTransaction: async (event) => {
    const id = `${event.transaction_id}:${event.transaction_status}`;
    process.stdout.write(`started ${id}\n`);
    if (hang) await new Promise(() => {});
    // Long enough that deliveries to the other instance overlap this one.
    await new Promise((resolve) => setTimeout(resolve, 5));
    process.stdout.write(`processed ${id} by ${process.pid}\n`);
  },
});
const server = createServer(toNodeHandler(handler));
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`port ${(server.address() as { port: number }).port}\n`);
});
process.on('SIGTERM', () => {
  server.close();
  void Promise.all([redis?.close(), pool?.end()]).then(() => process.exit(0));
});
