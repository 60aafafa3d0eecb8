import { checkTokenStoreWrite, type TokenStore, type TokenStoreEntry } from '../../auth/token-store.js';
import type { WalletLogger } from '../../logger.js';
import { checkLogger, checkOptions } from '../checks.js';
import { type RedisClientLike, redisCommander } from './commander.js';
import { checkPrefix } from './prefix.js';
import { TOKEN_CAS_SCRIPT, TOKEN_UNINDEX_SCRIPT } from './token-scripts.js';

/** Options of {@link createRedisTokenStore}. */
export interface RedisTokenStoreOptions {
  /** A connected node-redis 5 or ioredis client, single node or cluster. */
  client: RedisClientLike;
  /**
   * Prefix of every key the store writes. Its hash tag (the part in braces) keeps the keys and their
   * index in one slot, so each change is one script on Redis Cluster too.
   * @default '{merchant-wallet:tokens}:'
   */
  prefix?: string;
  /**
   * Where connections the server drops are reported (a warning each, naming the error); never thrown
   * at the process. Without it they are dropped silently, and the call on them still rejects.
   */
  logger?: WalletLogger;
}

/** A token store in Redis, with {@link RedisTokenStore.purgeExpired} to drop index entries of expired values. */
export interface RedisTokenStore extends TokenStore {
  /**
   * Removes from the key index every entry whose value expired (login states, authorization
   * notes) and answers how many; run it from a periodic job, as `purgeExpired` on PostgreSQL.
   */
  purgeExpired(): Promise<number>;
}

const DEFAULT_PREFIX = '{merchant-wallet:tokens}:';
const PURGE_BATCH = 500;

/**
 * The token vault's store in Redis, shared by every instance: each value is a string key changed
 * only by one compare-and-set script, atomic on the server, and listed through a sorted set of keys
 * (read by `ZRANGEBYLEX`, so `scan` is in key order). Values are ciphertexts, login states and
 * authorization notes, never a plaintext token; login states and notes expire by Redis's own TTL.
 *
 * @example
 * const store = createRedisTokenStore({ client: await createClient({ url: 'redis://localhost:6379' }).connect() });
 * @throws {WalletConfigError} naming the option at fault.
 */
export function createRedisTokenStore(options: RedisTokenStoreOptions): RedisTokenStore {
  checkOptions('createRedisTokenStore', options);
  const commander = redisCommander('client', options.client, checkLogger(options.logger));
  const prefix = checkPrefix('prefix', options.prefix ?? DEFAULT_PREFIX, commander, true);
  const index = `${prefix}index`;
  const valueKey = (key: string) => `${prefix}value:${key}`;
  /** Unindexes those of `members` whose value is gone, atomically per call; answers how many. */
  const unindex = async (members: readonly string[]) =>
    members.length === 0
      ? 0
      : Number(await commander.script(TOKEN_UNINDEX_SCRIPT, [index, ...members.map(valueKey)], [...members]));
  return {
    async get(key) {
      const value = await commander.send(valueKey(key), ['GET', valueKey(key)]);
      return typeof value === 'string' ? value : undefined;
    },
    async compareAndSet(key, expected, value, ttlMs) {
      checkTokenStoreWrite(key, value);
      const written = await commander.script(
        TOKEN_CAS_SCRIPT,
        [valueKey(key), index],
        [
          expected === undefined ? '0' : '1',
          expected ?? '',
          value === undefined ? '0' : '1',
          value ?? '',
          ttlMs === undefined ? '' : String(Math.max(1, Math.ceil(ttlMs))),
          key,
        ],
      );
      return Number(written) === 1;
    },
    async scan(prefixOfKeys, after, limit) {
      const entries: TokenStoreEntry[] = [];
      let from = after === undefined ? `[${prefixOfKeys}` : `(${after}`;
      while (entries.length < limit) {
        const members = (await commander.send(index, [
          'ZRANGEBYLEX',
          index,
          from,
          '+',
          'LIMIT',
          '0',
          String(limit),
        ])) as string[];
        const keys = members.filter((member) => member.startsWith(prefixOfKeys));
        if (keys.length > 0) {
          const values = (await commander.send(index, ['MGET', ...keys.map(valueKey)])) as Array<
            string | null
          >;
          const gone: string[] = [];
          keys.forEach((key, at) => {
            const value = values[at];
            if (typeof value !== 'string') gone.push(key);
            else if (entries.length < limit) entries.push({ key, value });
          });
          // Values that expired leave their key in the index until a scan or purgeExpired meets it.
          await unindex(gone);
        }
        if (keys.length < members.length || members.length < limit) break;
        from = `(${members[members.length - 1]}`;
      }
      return entries;
    },
    async purgeExpired() {
      let removed = 0;
      let from = '-';
      for (;;) {
        const members = (await commander.send(index, [
          'ZRANGEBYLEX',
          index,
          from,
          '+',
          'LIMIT',
          '0',
          String(PURGE_BATCH),
        ])) as string[];
        if (members.length === 0) return removed;
        const values = (await commander.send(index, ['MGET', ...members.map(valueKey)])) as Array<
          string | null
        >;
        removed += await unindex(members.filter((_, at) => typeof values[at] !== 'string'));
        if (members.length < PURGE_BATCH) return removed;
        from = `(${members[members.length - 1]}`;
      }
    },
  };
}
