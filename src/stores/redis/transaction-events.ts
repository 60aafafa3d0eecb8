import type { WalletConfigError } from '../../errors.js';
import type { WalletLogger } from '../../logger.js';
import type { OptionKeys } from '../../option-keys.js';
import { reconnectDelayMs } from '../reconnect-delay.js';
import {
  createEventHub,
  type SharedTransactionEvents,
  type TransactionEventsErrorHandler,
} from '../shared-transaction-events.js';
import { checkTransactionEventsOptions, loggerOrNone } from '../transaction-events-options.js';
import { type RedisClientLike, type RedisCommander, redisCommander } from './commander.js';
import { pubSubModeOf, type RedisPubSubMode } from './pubsub.js';
import { canDuplicate, type RedisSubscription, type SubscriberEvents, subscribe } from './subscriber.js';

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
  /**
   * Where the subscriber connection's changes are logged: a warning when it drops or cannot subscribe
   * at start-up, a debug line per further failure, a notice once it listens again. Only error codes
   * and class names, never a message or the URL.
   */
  logger?: WalletLogger;
}

/** What {@link createRedisTransactionEvents} resolves with. */
export type RedisTransactionEvents = SharedTransactionEvents;

const OPTION_KEYS: OptionKeys<RedisTransactionEventsOptions> = {
  client: true,
  channel: true,
  trustPeerStatus: true,
  onError: true,
  logger: true,
};

/**
 * Transaction events shared by every instance on one Redis, over pub/sub, so a wait on one instance
 * ends as soon as a webhook verified on another arrives, not at its next poll.
 *
 * On a cluster whose client subscribes to sharded channels (node-redis `createCluster()`, or ioredis
 * `Redis.Cluster` with `shardedSubscribers: true`) and Redis 7 or later, it uses sharded pub/sub
 * (SSUBSCRIBE/SPUBLISH), which keeps each message on the shard owning the channel; everywhere else
 * plain SUBSCRIBE/PUBLISH. Pub/sub delivers only to connected subscribers: while the subscriber
 * reconnects (the client does it by itself, and when it gives up the source opens a new one with
 * backoff, 100 ms up to 5 s), events are not heard here, and waits learn of them at their next poll.
 * Each connection error goes to `onError` and `logger`; `health()` says where the subscriber stands.
 *
 * @example
 * const client = await createClient({ url: 'redis://localhost:6379' }).connect();
 * const events = await createRedisTransactionEvents({ client });
 * const handler = createWebhookHandler({ verifyWith: wallet, onTransaction: events.publish });
 * const final = await wallet.waitForTransaction(transactionId, { events });
 * @throws {WalletConfigError} naming every option at fault, before connecting.
 * @returns once the source is subscribed, or once its first attempt failed (a Redis that is down at
 * start-up): it then subscribes as soon as the server answers, and waits poll meanwhile. Rejects only
 * for a {@link WalletConfigError}.
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
        commander = redisCommander('client', options.client, loggerOrNone(options.logger));
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
  settings: Omit<Parameters<typeof createEventHub>[0], 'name'> & {
    channel: string;
    commander: RedisCommander;
  },
): Promise<RedisTransactionEvents> {
  const { channel, commander } = settings;
  const hub = createEventHub({ ...settings, name: 'Redis transaction events' });
  // Only a cluster with sharded subscribers asks its server; everything else uses plain pub/sub at once.
  let mode: RedisPubSubMode | undefined = commander.cluster && commander.shardedPubSub ? undefined : 'plain';
  let subscription: RedisSubscription | undefined;
  let closed = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let started = () => {};
  const firstOutcome = new Promise<void>((resolve) => {
    started = resolve;
  });

  const failed = (error: unknown, retryInMs?: number) => {
    hub.report(error, 'connection');
    hub.status.failed(error, retryInMs);
    started();
  };
  // One attempt: a new subscriber connection. The client retries a server that is down by itself
  // (errors arrive meanwhile); when it gives up, the attempt fails and the next one follows with backoff.
  const attempt = async (failures: number): Promise<void> => {
    let current: RedisSubscription | undefined;
    let subscribed = false;
    const events: SubscriberEvents = {
      error: (error) => failed(error),
      ready: () => {
        if (subscribed) hub.status.connected();
      },
      ended: () => {
        if (closed || subscription !== current) return;
        subscription = undefined;
        again(new Error('The subscriber connection ended'), 0);
      },
    };
    try {
      mode ??= await pubSubModeOf(commander);
      const duplicable = client as unknown as { duplicate(): unknown };
      current = await subscribe(duplicable, commander.kind, mode, channel, hub.receive, events);
    } catch (error) {
      if (!closed) again(error, failures);
      return;
    }
    if (closed) return void (await current.close());
    subscription = current;
    subscribed = true;
    hub.status.connected();
    started();
  };
  const again = (error: unknown, failures: number) => {
    const delay = reconnectDelayMs(failures);
    failed(error, delay);
    retry = setTimeout(() => {
      retry = undefined;
      if (!closed) void attempt(failures + 1);
    }, delay);
  };

  void attempt(0);
  await firstOutcome;
  return hub.connect({
    async send(message) {
      if (mode === undefined)
        throw new Error('Not sent: the pub/sub mode is not known yet (the server is down)');
      // Routed by the channel: SPUBLISH must reach the master owning its slot.
      await commander.send(channel, [mode === 'sharded' ? 'SPUBLISH' : 'PUBLISH', channel, message]);
    },
    close: async () => {
      closed = true;
      clearTimeout(retry);
      const open = subscription;
      subscription = undefined;
      await open?.close();
    },
  });
}
