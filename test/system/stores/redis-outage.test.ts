/**
 * Redis going away under the SDK's connections: a transaction-event source started while Redis is
 * down starts anyway and subscribes once it is up; a subscriber whose server is killed reports the
 * drop and subscribes again; a dedupe store scripting on an ioredis client whose server is killed
 * rejects the claim and logs the drop. The process lives through each (an 'error' nobody handled
 * would fail the file, and ioredis printing one would fail the no-stray-console setup).
 */
import { Redis as IoRedis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import {
  createRedisDedupeStore,
  createRedisTransactionEvents,
  type RedisClientLike,
} from '../../../src/stores/redis/index.js';
import type {
  SharedTransactionEvents,
  TransactionEventsErrorInfo,
} from '../../../src/stores/shared-transaction-events.js';
import { type RestartableRedis, restartableRedis } from './restartable-redis.js';

let redis: RestartableRedis;
const closers: (() => Promise<unknown>)[] = [];
beforeAll(async () => {
  redis = await restartableRedis();
});
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
  await redis.up().catch(() => undefined);
});
afterAll(() => redis?.stop());

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, done: () => boolean, ms = 30_000) {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`not ${what} within ${ms} ms`);
    await pause(50);
  }
}

/** Everything a source or store told its logger and onError. */
function observed() {
  const logs: [string, string, Record<string, unknown> | undefined][] = [];
  const errors: [unknown, TransactionEventsErrorInfo][] = [];
  const at = (level: string) => (message: string, meta?: Record<string, unknown>) =>
    void logs.push([level, message, meta]);
  return {
    logs,
    errors,
    logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') },
    onError: (error: unknown, info: TransactionEventsErrorInfo) => void errors.push([error, info]),
  };
}

/** Publishes on `from` until `to` hears it: pub/sub reaches only subscribers that are connected. */
async function heardAcross(from: SharedTransactionEvents, to: SharedTransactionEvents, id: string) {
  let heard = false;
  const stop = to.subscribe((event) => {
    if (event.transaction_id === id) heard = true;
  });
  const event = { transaction_id: id, transaction_status: 'completed' } as const;
  for (let tries = 0; tries < 100 && !heard; tries++) {
    await from.publish(event as never).catch(() => undefined);
    await pause(100);
  }
  stop();
  return heard;
}

interface Backend {
  readonly name: string;
  /** A connected client of the merchant's, with an 'error' listener of its own as applications have. */
  client(): Promise<RedisClientLike>;
}

const backends: Backend[] = [
  {
    name: 'node-redis',
    async client() {
      const client = await createClient({ url: redis.url })
        .on('error', () => {})
        .connect();
      closers.push(async () => client.destroy());
      return client as unknown as RedisClientLike;
    },
  },
  {
    name: 'ioredis',
    async client() {
      // A command waits through one reconnection at most: the source then opens a new subscriber itself.
      const client = new IoRedis(redis.url, { maxRetriesPerRequest: 1 });
      client.on('error', () => {});
      closers.push(async () => client.disconnect());
      return client;
    },
  },
];

let channels = 0;

describe.each(backends)('$name', (backend) => {
  test('an event source created while Redis is down starts, says so through onError, the logger and health(), and hears events once Redis is up', async () => {
    const channel = `outage-${++channels}`;
    const publisher = await createRedisTransactionEvents({ client: await backend.client(), channel });
    closers.push(() => publisher.close());
    const client = await backend.client();
    await redis.down();
    const seen = observed();
    const started = performance.now();
    const events = await createRedisTransactionEvents({
      client,
      channel,
      onError: seen.onError,
      logger: seen.logger,
    });
    closers.push(() => events.close());
    // It resolved on its first failed attempt, not when Redis came back.
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(events.health()).toMatchObject({ state: 'reconnecting', failedAttempts: expect.any(Number) });
    expect(events.health().failedAttempts).toBeGreaterThan(0);
    expect(seen.errors.length).toBeGreaterThan(0);
    expect(seen.errors.every(([, info]) => info.stage === 'connection')).toBe(true);
    expect(seen.logs[0]).toEqual([
      'warn',
      expect.stringMatching(/^Redis transaction events: could not listen at start-up/),
      expect.objectContaining({ error: expect.any(String), failedAttempts: 1 }),
    ]);

    await redis.up();
    await until('listening again', () => events.health().state === 'connected');
    expect(seen.logs.some(([level, message]) => level === 'info' && /listening again/.test(message))).toBe(
      true,
    );
    expect(await heardAcross(publisher, events, `txn-up-${backend.name}`)).toBe(true);
  }, 90_000);

  test('a source whose Redis is killed under it lives, reports the drop, and hears events again after the restart', async () => {
    const channel = `outage-${++channels}`;
    const seen = observed();
    const events = await createRedisTransactionEvents({
      client: await backend.client(),
      channel,
      onError: seen.onError,
      logger: seen.logger,
    });
    closers.push(() => events.close());
    expect(events.health()).toMatchObject({ state: 'connected', failedAttempts: 0 });
    await redis.down();
    await until('reconnecting', () => events.health().state === 'reconnecting');
    expect(events.health().lastError).toEqual(expect.any(String));
    expect(
      seen.logs.some(([level, message]) => level === 'warn' && /listening connection dropped/.test(message)),
    ).toBe(true);
    await pause(1_000);
    await redis.up();
    await until('listening again', () => events.health().state === 'connected');
    const publisher = await createRedisTransactionEvents({ client: await backend.client(), channel });
    closers.push(() => publisher.close());
    expect(await heardAcross(publisher, events, `txn-again-${backend.name}`)).toBe(true);
    // Nothing in what was logged or reported holds the URL.
    expect(JSON.stringify(seen.logs)).not.toContain(redis.url);
  }, 90_000);
});

test('a dedupe store scripting on an ioredis client whose Redis is killed: the claim rejects, the drop is logged, the process lives, and claims work after the restart', async () => {
  // No 'error' listener of the merchant's own: the store's logger takes the client's errors over.
  const client = new IoRedis(redis.url, { maxRetriesPerRequest: 1 });
  closers.push(async () => client.disconnect());
  const seen = observed();
  const dedupe = createRedisDedupeStore({ client, ttlMs: 60_000, logger: seen.logger });
  expect(await dedupe.claim('evt-before', 5_000)).toMatchObject({ outcome: 'claimed' });
  await redis.down();
  const failed = await Promise.resolve(dedupe.claim('evt-during', 5_000)).catch((error: unknown) => error);
  expect(failed).toBeInstanceOf(Error);
  expect(
    seen.logs.some(
      ([level, message]) => level === 'warn' && /dropped a connection \(the Redis client\)/.test(message),
    ),
  ).toBe(true);
  await redis.up();
  let after: unknown;
  for (let tries = 0; tries < 100 && (after as { outcome?: string })?.outcome !== 'claimed'; tries++) {
    after = await Promise.resolve(dedupe.claim('evt-after', 5_000)).catch((error: unknown) => error);
    if ((after as { outcome?: string })?.outcome !== 'claimed') await pause(100);
  }
  expect(after).toMatchObject({ outcome: 'claimed' });
}, 90_000);
