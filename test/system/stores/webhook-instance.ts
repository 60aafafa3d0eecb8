/**
 * One merchant instance receiving webhooks, for the shared-dedupe system test: a node:http server
 * whose handler de-duplicates through Redis. Prints `port N`, then `processed <id>:<status>` per callback.
 */
import { createServer } from 'node:http';
import { createClient } from 'redis';
import { createRedisDedupeStore } from '../../../src/stores/redis/index.js';
import { createWebhookHandler, toNodeHandler } from '../../../src/webhooks/index.js';

const client = await createClient({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' }).connect();
const handler = createWebhookHandler({
  dedupe: createRedisDedupeStore({ client, ttlMs: 60_000, prefix: 'shared-dedupe:' }),
  onTransaction: async (event) => {
    // Long enough that deliveries to the other instance overlap this one.
    await new Promise((resolve) => setTimeout(resolve, 5));
    process.stdout.write(`processed ${event.transaction_id}:${event.transaction_status} by ${process.pid}\n`);
  },
});
const server = createServer(toNodeHandler(handler));
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`port ${(server.address() as { port: number }).port}\n`);
});
process.on('SIGTERM', () => {
  server.close();
  void client.close().then(() => process.exit(0));
});
