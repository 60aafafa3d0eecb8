import { WalletConfigError } from '../../errors.js';
import { checkOptions } from '../checks.js';
import { type RedisClientLike, type RedisCommander, redisCommander } from './commander.js';
import { checkPrefix } from './prefix.js';

/** The journal's default key prefix: one hash tag, so its scripts run on a single node and on a cluster alike. */
export const JOURNAL_PREFIX = '{merchant-wallet:journal}:';

/** The earlier default prefix: no hash tag, so usable on a single node only. */
export const OLD_JOURNAL_PREFIX = 'merchant-wallet:journal:';

/** The counter every journal creates with its first record and never deletes: proof a journal lives under a prefix. */
const SEQUENCE = 'sequence';

/**
 * Refuses, on a journal left at the default prefix, a Redis that still holds a journal under the old
 * default. Switching silently would leave its open intents out of `recover()`; what to do is the
 * merchant's choice (keep the old prefix, or migrate once with every instance stopped).
 */
export async function refuseOldJournal(commander: RedisCommander): Promise<void> {
  const old = OLD_JOURNAL_PREFIX + SEQUENCE;
  if ((await commander.send(old, ['EXISTS', old])) !== 1) return;
  throw new WalletConfigError(
    'prefix',
    `this Redis holds a payment journal under the old default prefix "${OLD_JOURNAL_PREFIX}", and the default is now "${JOURNAL_PREFIX}". Pass prefix: '${OLD_JOURNAL_PREFIX}' to keep using it (single node only), or stop every instance and run migrateRedisJournalPrefix({ client }) once`,
  );
}

/** Options of {@link migrateRedisJournalPrefix}. */
export interface MigrateRedisJournalPrefixOptions {
  /** A connected single-node node-redis 5 or ioredis client on the Redis holding the journal. */
  client: RedisClientLike;
  /**
   * The prefix the journal is under now.
   * @default 'merchant-wallet:journal:'
   */
  from?: string;
  /**
   * The prefix to move it to.
   * @default '{merchant-wallet:journal}:'
   */
  to?: string;
}

/** What {@link migrateRedisJournalPrefix} did. */
export interface MigrateRedisJournalPrefixReport {
  /** How many keys were renamed. */
  readonly moved: number;
}

/** SCAN's MATCH is a glob: escape the prefix so only its own keys match. */
function globEscape(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&');
}

/**
 * Moves a Redis journal from one key prefix to another, by default from the old default
 * (`merchant-wallet:journal:`) to the new one (`{merchant-wallet:journal}:`). Run it once, with every
 * instance using that journal stopped: a writer on the old prefix during the move would split the journal.
 *
 * Each key is renamed with RENAMENX; the sequence counter goes last, so a run cut short is finished by
 * running it again. Only on a single node: the old default never worked on a cluster.
 *
 * @example
 * await migrateRedisJournalPrefix({ client: await createClient({ url: 'redis://localhost:6379' }).connect() });
 * @throws {WalletConfigError} naming the option at fault, or `to` when it already holds a journal.
 */
export async function migrateRedisJournalPrefix(
  options: MigrateRedisJournalPrefixOptions,
): Promise<MigrateRedisJournalPrefixReport> {
  checkOptions('migrateRedisJournalPrefix', options);
  const commander = redisCommander('client', options.client);
  if (commander.cluster) {
    throw new WalletConfigError(
      'client',
      'must be a single-node client: the old prefix was never usable on a cluster',
    );
  }
  const from = checkPrefix('from', options.from ?? OLD_JOURNAL_PREFIX, commander, false);
  const to = checkPrefix('to', options.to ?? JOURNAL_PREFIX, commander, false);
  if (from.startsWith(to) || to.startsWith(from)) {
    throw new WalletConfigError('to', 'must differ from `from` and neither may start with the other');
  }
  if ((await commander.send(to + SEQUENCE, ['EXISTS', to + SEQUENCE])) === 1) {
    throw new WalletConfigError('to', `"${to}" already holds a journal; nothing was moved`);
  }
  let moved = 0;
  const rename = async (key: string) => {
    const target = to + key.slice(from.length);
    if ((await commander.send(key, ['RENAMENX', key, target])) !== 1) {
      throw new WalletConfigError('to', `"${target}" exists already; ${moved} keys were moved before it`);
    }
    moved += 1;
  };
  let cursor = '0';
  do {
    const [next, keys] = (await commander.send(undefined, [
      'SCAN',
      cursor,
      'MATCH',
      `${globEscape(from)}*`,
      'COUNT',
      '500',
    ])) as [string, string[]];
    cursor = String(next);
    for (const key of keys.map(String)) if (key !== from + SEQUENCE) await rename(key);
  } while (cursor !== '0');
  if ((await commander.send(from + SEQUENCE, ['EXISTS', from + SEQUENCE])) === 1)
    await rename(from + SEQUENCE);
  return { moved };
}
