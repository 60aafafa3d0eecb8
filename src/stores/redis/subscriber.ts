import type { RedisClientKind } from './commander.js';
import type { RedisPubSubMode } from './pubsub.js';

/** A connection subscribed to one channel. */
export interface RedisSubscription {
  /** Unsubscribes and closes the connection. */
  close(): Promise<void>;
}

/** What the subscriber needs of the merchant's client besides sending commands: a copy of itself. */
interface Duplicable {
  duplicate(): unknown;
}

/** What a subscriber connection tells its source, besides messages. */
export interface SubscriberEvents {
  /** A connection error: the client reconnects by itself and subscribes again. */
  error(error: unknown): void;
  /** The connection is ready again after a reconnection. */
  ready(): void;
  /** The connection ended for good (the client gave up reconnecting), not by `close()`. */
  ended(): void;
}

interface NodeRedisSubscriber {
  on(event: 'error', listener: (error: unknown) => void): unknown;
  on(event: 'ready' | 'end', listener: () => void): unknown;
  connect(): Promise<unknown>;
  subscribe(channel: string, listener: (message: string) => void): Promise<void>;
  sSubscribe(channel: string, listener: (message: string) => void): Promise<void>;
  close(): Promise<void>;
  destroy(): void;
}

interface IoRedisSubscriber {
  on(event: 'error', listener: (error: unknown) => void): unknown;
  on(event: 'ready' | 'end', listener: () => void): unknown;
  on(event: 'message' | 'smessage', listener: (channel: string, message: string) => void): unknown;
  subscribe(channel: string): Promise<unknown>;
  ssubscribe(channel: string): Promise<unknown>;
  disconnect(): void;
}

/** Whether `client` can make the dedicated connection a subscriber needs. */
export function canDuplicate(client: unknown): client is Duplicable {
  return typeof (client as Partial<Duplicable> | null)?.duplicate === 'function';
}

/** Listens for the connection events of `subscriber`; `'end'` counts only until `close()` was called. */
function follow(
  subscriber: Pick<NodeRedisSubscriber, 'on'>,
  events: SubscriberEvents,
  closing: () => boolean,
): void {
  subscriber.on('error', events.error);
  subscriber.on('ready', events.ready);
  subscriber.on('end', () => {
    if (!closing()) events.ended();
  });
}

/**
 * Subscribes to `channel` on a new connection, `client.duplicate()`: a subscribed connection can send
 * nothing but (un)subscriptions, so it can never be the merchant's own. Both clients reconnect by
 * themselves and subscribe again (node-redis always, ioredis with its default `autoResubscribe`);
 * every connection error meanwhile goes to `events.error`. While the server is down at start-up, the
 * promise waits as the client retries, and rejects when the client gives up (ioredis after
 * `maxRetriesPerRequest` reconnections, node-redis without a `reconnectStrategy`).
 */
export async function subscribe(
  client: Duplicable,
  kind: RedisClientKind,
  mode: RedisPubSubMode,
  channel: string,
  onMessage: (message: string) => void,
  events: SubscriberEvents,
): Promise<RedisSubscription> {
  let closing = false;
  if (kind === 'ioredis' || kind === 'ioredis-cluster') {
    const subscriber = client.duplicate() as IoRedisSubscriber;
    follow(subscriber, events, () => closing);
    subscriber.on(mode === 'sharded' ? 'smessage' : 'message', (from, message) => {
      if (from === channel) onMessage(message);
    });
    try {
      await (mode === 'sharded' ? subscriber.ssubscribe(channel) : subscriber.subscribe(channel));
    } catch (error) {
      closing = true;
      subscriber.disconnect();
      throw error;
    }
    // Closing at once: a graceful QUIT would wait for a connection that may be re-establishing.
    return {
      close: async () => {
        closing = true;
        subscriber.disconnect();
      },
    };
  }
  const subscriber = client.duplicate() as NodeRedisSubscriber;
  follow(subscriber, events, () => closing);
  const close = async () => {
    closing = true;
    try {
      await subscriber.close();
    } catch {
      try {
        subscriber.destroy();
      } catch {
        // Already closed.
      }
    }
  };
  try {
    await subscriber.connect();
    await (mode === 'sharded'
      ? subscriber.sSubscribe(channel, onMessage)
      : subscriber.subscribe(channel, onMessage));
  } catch (error) {
    await close();
    throw error;
  }
  return { close };
}
