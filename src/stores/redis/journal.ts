import { checkId, checkLimit, checkNewIntent, checkState, checkUpdate } from '../../journal/checks.js';
import { isoClock } from '../../journal/clock.js';
import { listWithQueries } from '../../journal/query.js';
import { PAYMENT_INTENT_STATES, type PaymentIntent, type PaymentJournal } from '../../journal/types.js';
import type { WalletLogger } from '../../logger.js';
import { checkLogger, checkOptions } from '../checks.js';
import { type RedisClientLike, type RedisScript, redisCommander } from './commander.js';
import { freshIntent, INTENT_FIELDS, intentFromValues } from './intent-fields.js';
import { queryPage } from './journal-query.js';
import { sweepMethods } from './journal-sweep.js';
import { JOURNAL_PREFIX, refuseOldJournal } from './legacy-prefix.js';
import { LEGACY_ACCEPTED_STATE, renameLegacyStates } from './legacy-states.js';
import { checkPrefix } from './prefix.js';
import { RECORD_SCRIPT, RENEW_SENDING_SCRIPT, TIME_SCRIPT, UPDATE_SCRIPT } from './scripts.js';
import { redisStoreClock } from './store-clock.js';

/** A write's time as its ISO 8601 text: the writes of one millisecond share one. */
const writeIsoAt = isoClock();

/** Options of {@link createRedisJournal}. */
export interface RedisJournalOptions {
  /**
   * A connected node-redis 5 or ioredis client, single node or cluster (`createCluster()`,
   * `new Redis.Cluster()`), on a Redis that persists writes (`appendonly yes`).
   */
  client: RedisClientLike;
  /**
   * Prefix of every key the journal writes. On a cluster it must hold a hash tag (`{…}`) so every key
   * shares one slot; the default has one. Left at the default, the journal refuses to start on a Redis
   * holding a journal under the earlier default `merchant-wallet:journal:` (see `migrateRedisJournalPrefix`).
   * @default '{merchant-wallet:journal}:'
   */
  prefix?: string;
  /**
   * Where a dropped connection is reported, as a warning naming what it was for; never a secret.
   * Without one, drops are still caught, so the process lives, but nothing is told.
   */
  logger?: WalletLogger;
}

/** The states whose sets an update may move an intent between: an earlier version's `applied` too. */
const UPDATE_STATES = [...PAYMENT_INTENT_STATES, LEGACY_ACCEPTED_STATE];

/**
 * A {@link PaymentJournal} in Redis; every write is one Lua script, atomic on the server. Use a Redis
 * that persists every write (`appendonly yes`, `appendfsync always` for no loss on a power cut).
 *
 * @example
 * const journal = createRedisJournal({ client: await createClient({ url: 'redis://localhost:6379' }).connect() });
 * @throws {WalletConfigError} naming the option at fault.
 */
export function createRedisJournal(options: RedisJournalOptions): PaymentJournal {
  checkOptions('createRedisJournal', options);
  const commander = redisCommander('client', options.client, checkLogger(options.logger));
  const prefix = checkPrefix('prefix', options.prefix ?? JOURNAL_PREFIX, commander, true);
  // Checked and upgraded once, on first use, and again after a failure (Redis may have been unreachable).
  let checked: Promise<void> | undefined;
  let isReady = false;
  const ready = () => {
    checked ??= (async () => {
      if (options.prefix === undefined) await refuseOldJournal(commander);
      await renameLegacyStates(commander, prefix);
      isReady = true;
    })().catch((error: unknown) => {
      checked = undefined;
      throw error;
    });
    return checked;
  };
  // Once ready, a command goes straight to the commander, with no wait on the check in between.
  const send = (key: string, args: string[]) =>
    isReady ? commander.send(key, args) : ready().then(() => commander.send(key, args));
  const script = (source: RedisScript, keys: string[], args: string[]) =>
    isReady ? commander.script(source, keys, args) : ready().then(() => commander.script(source, keys, args));
  const intentKey = (referenceId: string) => `${prefix}intent:${referenceId}`;
  const stateKey = (state: string) => `${prefix}state:${state}`;
  const transactionKey = (transactionId: string) => `${prefix}transaction:${transactionId}`;
  const dueKey = `${prefix}due`;
  const createdKey = `${prefix}created`;
  const sequenceKey = `${prefix}sequence`;
  const sendingKey = stateKey('sending');
  const updateSetKeys = UPDATE_STATES.map(stateKey);
  const updateStates = UPDATE_STATES.join(',');
  const clock = redisStoreClock(async () => {
    const reply = await script(TIME_SCRIPT, [dueKey], []);
    const [seconds, micros] = Array.isArray(reply) ? reply : [];
    const ms = Number(seconds) * 1000 + Number(micros) / 1000;
    // A server that cannot tell its time (a proxy that refuses TIME) leaves this process's clock.
    return Number.isFinite(ms) ? ms : Date.now();
  });
  const get = async (referenceId: string) => {
    const key = intentKey(referenceId);
    return intentFromValues(await send(key, ['HMGET', key, ...INTENT_FIELDS]));
  };
  const update: PaymentJournal['update'] = async (referenceId, change) => {
    checkId('referenceId', referenceId);
    checkUpdate(change);
    const nowMs = clock.latest() ?? (await clock());
    const reply = await script(
      UPDATE_SCRIPT,
      [intentKey(referenceId), transactionKey(change.transactionId ?? ''), ...updateSetKeys, dueKey],
      [
        referenceId,
        change.state ?? '',
        change.transactionId ?? '',
        change.transactionStatus ?? '',
        change.reason ?? '',
        writeIsoAt(nowMs),
        updateStates,
        change.ifState?.join(',') ?? '',
        change.ifRecordedBy ?? '',
        String(nowMs),
        change.settledBy ?? '',
      ],
    );
    return intentFromValues(reply);
  };
  return {
    async record(intent) {
      checkNewIntent(intent);
      const keys = [intentKey(intent.referenceId), sequenceKey, sendingKey, dueKey, createdKey];
      const nowMs = clock.latest() ?? (await clock());
      const now = writeIsoAt(nowMs);
      const body = JSON.stringify(intent.body);
      const metadata = intent.metadata === undefined ? '' : JSON.stringify(intent.metadata);
      const args = [
        intent.referenceId,
        intent.endpoint,
        body,
        now,
        intent.merchant ?? '',
        intent.recordedBy ?? '',
        intent.userEmail ?? '',
        metadata,
        String(nowMs),
        intent.sendingLeaseMs === undefined ? '' : String(intent.sendingLeaseMs),
        intent.keyFingerprint ?? '',
      ];
      const reply = await script(RECORD_SCRIPT, keys, args);
      // A fresh record answers 1 alone; an existing intent answers itself, as the store holds it.
      if (Array.isArray(reply)) return intentFromValues(reply) as PaymentIntent;
      return freshIntent({ intent, body, metadata, nowMs, now });
    },
    update,
    async updateByTransactionId(transactionId, change) {
      checkId('transactionId', transactionId);
      const key = transactionKey(transactionId);
      const referenceId = await send(key, ['GET', key]);
      return typeof referenceId === 'string' ? update(referenceId, change) : undefined;
    },
    async get(referenceId) {
      return get(checkId('referenceId', referenceId));
    },
    list: listWithQueries(
      async (state, options) => {
        checkState(state);
        const limit = checkLimit(options);
        const key = stateKey(state);
        const ids = await send(key, ['ZRANGE', key, '0', String(limit === undefined ? -1 : limit - 1)]);
        const intents = await Promise.all((ids as string[]).map(get));
        return intents.filter((intent): intent is PaymentIntent => intent?.state === state);
      },
      (query) => queryPage({ createdKey, send, get }, query),
    ),
    ...sweepMethods({ script, prefix, dueKey, intentKey, toIntent: intentFromValues, clock }),
    async renewSending(referenceId, recordedBy, leaseMs) {
      const key = intentKey(checkId('referenceId', referenceId));
      const done = await script(
        RENEW_SENDING_SCRIPT,
        [key],
        [recordedBy, String(await clock()), String(leaseMs)],
      );
      return Number(done) === 1;
    },
    now: clock,
  };
}
