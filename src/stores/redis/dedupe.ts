import type { WebhookDedupeStore } from '../../webhooks/dedupe.js';
import { checkOptions, checkTtl } from '../checks.js';
import { type RedisClientLike, redisCommander } from './commander.js';
import { checkPrefix } from './prefix.js';

/** Options of {@link createRedisDedupeStore}. */
export interface RedisDedupeStoreOptions {
  /** A connected node-redis 5 or ioredis client, single node or cluster. */
  client: RedisClientLike;
  /** How long a processed event's key is kept, in milliseconds; keep it longer than the sender's redelivery window. */
  ttlMs: number;
  /**
   * Prefix of every key the store writes. Each command touches one key, so no hash tag is needed on a
   * cluster: without one, the keys spread over every master.
   * @default 'merchant-wallet:dedupe:'
   */
  prefix?: string;
}

/**
 * A webhook dedupe store shared by every process on one Redis: a claim is `SET key 1 NX PX ttl`,
 * atomic on the server, so of several instances receiving one delivery exactly one processes it.
 *
 * @example
 * const dedupe = createRedisDedupeStore({ client: await createClient({ url }).connect(), ttlMs: 7 * 24 * 3600_000 });
 * @throws {WalletConfigError} naming the option at fault.
 */
export function createRedisDedupeStore(options: RedisDedupeStoreOptions): WebhookDedupeStore {
  checkOptions('createRedisDedupeStore', options);
  const commander = redisCommander('client', options.client);
  const ttl = String(checkTtl('ttlMs', options.ttlMs));
  const prefix = checkPrefix('prefix', options.prefix ?? 'merchant-wallet:dedupe:', commander, false);
  const send = (key: string, args: string[]) => commander.send(key, args);
  return {
    async claim(key) {
      return (await send(prefix + key, ['SET', prefix + key, '1', 'NX', 'PX', ttl])) !== null;
    },
    async release(key) {
      await send(prefix + key, ['DEL', prefix + key]);
    },
  };
}
