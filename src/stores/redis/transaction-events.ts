import type { WalletConfigError } from '../../errors.js';
import type { OptionKeys } from '../../option-keys.js';
import {
  createEventHub,
  type SharedTransactionEvents,
  type TransactionEventsErrorHandler,
} from '../shared-transaction-events.js';
import { checkTransactionEventsOptions } from '../transaction-events-options.js';
import { type RedisClientLike, type RedisCommander, redisCommander } from './commander.js';
import { pubSubModeOf } from './pubsub.js';
import { canDuplicate, subscribe } from './subscriber.js';

/** Options of {@link createRedisTransactionEvents}. */
export interface RedisTransactionEventsOptions {
  /**
   * A connected node-redis 5 or ioredis client, single node or cluster. It publishes; the source
   * subscribes on a connection of its own, `client.duplicate()`, which it closes in `close()`.
   */
  client: RedisClientLike;
  /**
   * The channel, shared by every instance.
   * @default 'merchant-wallet:transaction-events'
   */
  channel?: string;
  /**
   * Whether a status received from another instance is trusted as verified (see
   * {@link SharedTransactionEvents}). Anyone allowed to PUBLISH on the channel can write to it: where
   * clients you do not trust share the Redis and its ACLs do not keep them off the channel, set `false`,
   * and each event only makes the waits it concerns read the status at once.
   * @default true
   */
  trustPeerStatus?: boolean;
  /** Told about each failed send, dropped message, throwing listener and connection error. */
  onError?: TransactionEventsErrorHandler;
}

/** What {@link createRedisTransactionEvents} resolves with. */
export type RedisTransactionEvents = SharedTransactionEvents;

const OPTION_KEYS: OptionKeys<RedisTransactionEventsOptions> = {
  client: true,
  channel: true,
  trustPeerStatus: true,
  onError: true,
};

/**
 * Transaction events shared by every instance on one Redis, over pub/sub, so a wait on one instance
 * ends as soon as a webhook verified on another arrives, not at its next poll.
 *
 * On a cluster whose client subscribes to sharded channels (node-redis `createCluster()`, or ioredis
 * `Redis.Cluster` with `shardedSubscribers: true`) and Redis 7 or later, it uses sharded pub/sub
 * (SSUBSCRIBE/SPUBLISH), which keeps each message on the shard owning the channel; everywhere else
 * plain SUBSCRIBE/PUBLISH. Pub/sub delivers only to connected subscribers: while the subscriber
 * reconnects (the client does it by itself), events are not heard here, and waits learn of them at
 * their next poll.
 *
 * @example
 * const client = await createClient({ url: 'redis://localhost:6379' }).connect();
 * const events = await createRedisTransactionEvents({ client });
 * const handler = createWebhookHandler({ verifyWith: wallet, onTransaction: events.publish });
 * const final = await wallet.waitForTransaction(transactionId, { events });
 * @throws {WalletConfigError} naming every option at fault, before connecting.
 * @returns once the source is subscribed; rejects when the subscription fails.
 */
export function createRedisTransactionEvents(
  options: RedisTransactionEventsOptions,
): Promise<RedisTransactionEvents> {
  const settings = checkTransactionEventsOptions(
    'createRedisTransactionEvents',
    options,
    OPTION_KEYS,
    {
      defaultChannel: 'merchant-wallet:transaction-events',
      checkChannel: (value) =>
        value.length > 0 && value.length <= 200 ? undefined : 'must be a string of 1 to 200 characters',
    },
    (issues) => {
      let commander: RedisCommander | undefined;
      try {
        commander = redisCommander('client', options.client);
      } catch (error) {
        issues.push(...(error as WalletConfigError).issues);
      }
      if (commander !== undefined && !canDuplicate(options.client)) {
        issues.push({ path: 'client', message: 'must have duplicate(), to open the subscriber connection' });
      }
      return { commander: commander as RedisCommander };
    },
  );
  return start(options.client, settings);
}

async function start(
  client: RedisClientLike,
  settings: Parameters<typeof createEventHub>[0] & { channel: string; commander: RedisCommander },
): Promise<RedisTransactionEvents> {
  const { channel, commander } = settings;
  const hub = createEventHub(settings);
  const mode = await pubSubModeOf(commander);
  const subscription = await subscribe(
    client as unknown as { duplicate(): unknown },
    commander.kind,
    mode,
    channel,
    hub.receive,
    (error) => hub.report(error, 'connection'),
  );
  const publish = mode === 'sharded' ? 'SPUBLISH' : 'PUBLISH';
  return hub.connect({
    async send(message) {
      // Routed by the channel: SPUBLISH must reach the master owning its slot.
      await commander.send(channel, [publish, channel, message]);
    },
    close: () => subscription.close(),
  });
}
