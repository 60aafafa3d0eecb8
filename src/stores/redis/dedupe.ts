import type { WebhookDedupeStore } from '../../webhooks/dedupe.js';
import { checkOptions, checkTtl } from '../checks.js';
import { checkPrefix, commandSender, type RedisClientLike } from './commander.js';

/** Options of {@link createRedisDedupeStore}. */
export interface RedisDedupeStoreOptions {
  /** A connected node-redis 5 or ioredis client. */
  client: RedisClientLike;
  /** How long a processed event's key is kept, in milliseconds; keep it longer than the sender's redelivery window. */
  ttlMs: number;
  /**
   * Prefix of every key the store writes.
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
  const send = commandSender('client', options.client);
  const ttl = String(checkTtl('ttlMs', options.ttlMs));
  const prefix = checkPrefix('prefix', options.prefix ?? 'merchant-wallet:dedupe:');
  return {
    async claim(key) {
      return (await send(['SET', prefix + key, '1', 'NX', 'PX', ttl])) !== null;
    },
    async release(key) {
      await send(['DEL', prefix + key]);
    },
  };
}
