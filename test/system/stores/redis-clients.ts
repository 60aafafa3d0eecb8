import { Redis as IoRedis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, beforeAll } from 'vitest';
import { started } from '../started.js';
import { type RunningServer, startRedis } from './servers.js';

/** A connected node-redis client, as `createClient` makes it. */
export type NodeRedisClient = ReturnType<typeof createClient>;

/** A redis-server and one client of each driver on it, as {@link useRedisClients} runs them for a test file. */
export interface RedisClients {
  /** Where the server answers: `redis://127.0.0.1:port`. */
  readonly url: string;
  /** A node-redis client, connected before the file's tests. */
  readonly nodeRedis: NodeRedisClient;
  /** An ioredis client, connected before the file's tests. */
  readonly ioredis: IoRedis;
}

/**
 * For the file that calls it: a `redis-server` on a free loopback port (see {@link startRedis}), a
 * node-redis client and an ioredis client connected to it before the file's tests, both closed and the
 * server stopped after them. The stores take either client as it is, so a test runs a check through both
 * drivers by making its store once with each. Call it before the file's own hooks, so they can use the
 * clients and are undone before the clients close. Everything it returns is started in `beforeAll`:
 * read it in tests and hooks only.
 */
export function useRedisClients(): RedisClients {
  let server: RunningServer | undefined;
  let nodeRedis: NodeRedisClient | undefined;
  let ioredis: IoRedis | undefined;
  beforeAll(async () => {
    server = await startRedis();
    nodeRedis = await createClient({ url: server.url }).connect();
    ioredis = new IoRedis(server.url, { lazyConnect: true });
    await ioredis.connect();
  });
  afterAll(async () => {
    await nodeRedis?.close();
    ioredis?.disconnect();
    await server?.stop();
  });
  return {
    get url() {
      return started('useRedisClients', 'url', server).url;
    },
    get nodeRedis() {
      return started('useRedisClients', 'nodeRedis', nodeRedis);
    },
    get ioredis() {
      return started('useRedisClients', 'ioredis', ioredis);
    },
  };
}
