import type { WalletLogger } from '../../logger.js';
import { newLease, type WebhookDedupeStore } from '../../webhooks/dedupe.js';
import { checkLogger, checkOptions, checkTtl } from '../checks.js';
import { type RedisClientLike, redisCommander } from './commander.js';
import { CLAIM_SCRIPT, COMPLETE_SCRIPT, RELEASE_SCRIPT } from './dedupe-scripts.js';
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
  /**
   * Where connections the server drops are reported (a warning each, naming the error); never thrown
   * at the process. Without it they are dropped silently, and a claim sent meanwhile still rejects.
   */
  logger?: WalletLogger;
}

/**
 * A webhook dedupe store shared by every process on one Redis: a claim takes the key under a lease
 * in one script, atomic on the server, so of several instances receiving one delivery exactly one
 * processes it; the key is held for `ttlMs` once the callback succeeded. Each script touches one key.
 *
 * @example
 * const dedupe = createRedisDedupeStore({
 *   client: await createClient({ url: 'redis://localhost:6379' }).connect(),
 *   ttlMs: 7 * 24 * 3600_000,
 * });
 * @throws {WalletConfigError} naming the option at fault.
 */
export function createRedisDedupeStore(options: RedisDedupeStoreOptions): WebhookDedupeStore {
  checkOptions('createRedisDedupeStore', options);
  const commander = redisCommander('client', options.client, checkLogger(options.logger));
  const ttl = String(checkTtl('ttlMs', options.ttlMs));
  const prefix = checkPrefix('prefix', options.prefix ?? 'merchant-wallet:dedupe:', commander, false);
  return {
    async claim(key, leaseMs) {
      const lease = newLease();
      const reply = (await commander.script(
        CLAIM_SCRIPT,
        [prefix + key],
        [lease, String(Math.ceil(leaseMs))],
      )) as [string, number?];
      if (reply[0] === 'claimed') return { outcome: 'claimed', lease };
      if (reply[0] === 'in_progress')
        return { outcome: 'in_progress', retryAfterMs: Math.max(0, Number(reply[1])) };
      return { outcome: 'duplicate' };
    },
    async complete(key, lease) {
      await commander.script(COMPLETE_SCRIPT, [prefix + key], [lease, ttl]);
    },
    async release(key, lease) {
      await commander.script(RELEASE_SCRIPT, [prefix + key], [lease]);
    },
  };
}
