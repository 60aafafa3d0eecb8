import { createHash } from 'node:crypto';
import { WalletConfigError } from '../../errors.js';
import type { WalletLogger } from '../../logger.js';
import { guardShared } from '../connection-errors.js';

/** A node-redis 5 client (`createClient()`), which sends raw commands with `sendCommand(args)`. */
export interface NodeRedisLike {
  /** Sends one command given as its words. */
  sendCommand(args: string[]): Promise<unknown>;
}

/**
 * A node-redis 5 cluster client (`createCluster()`). Its `sendCommand` takes the key that picks the
 * node first, then whether the command only reads, then the command's words.
 */
export interface NodeRedisClusterLike {
  /** Sends one command to the master holding `firstKey`'s slot (any node when `undefined`). */
  sendCommand(
    firstKey: string | undefined,
    isReadonly: boolean | undefined,
    args: string[],
  ): Promise<unknown>;
  /** The client of one node; its presence (with `masters`) is how a cluster is told from a single client. */
  nodeClient(node: never): unknown;
  /** The cluster's masters. */
  readonly masters: readonly unknown[];
}

/** An ioredis client, single (`new Redis()`) or cluster (`new Redis.Cluster()`), which sends raw commands with `call`. */
export interface IoRedisLike {
  /** Sends one command with its arguments; a cluster client finds the keys itself. */
  call(command: string, ...args: string[]): Promise<unknown>;
  /** `true` on `Redis.Cluster`. */
  readonly isCluster?: boolean;
}

/** A connected Redis client: node-redis 5 or ioredis, single node or cluster. The adapters only send plain commands. */
export type RedisClientLike = NodeRedisLike | NodeRedisClusterLike | IoRedisLike;

/** Which client a {@link RedisCommander} drives. */
export type RedisClientKind = 'node-redis' | 'node-redis-cluster' | 'ioredis' | 'ioredis-cluster';

/** A Lua script with its SHA1, so it is sent in full only to a node that does not hold it yet. */
export interface RedisScript {
  /** The Lua source. */
  readonly source: string;
  /** Its SHA1 in hex, as `SCRIPT LOAD` would answer. */
  readonly sha1: string;
}

/** Builds a {@link RedisScript}. */
export function redisScript(source: string): RedisScript {
  return { source, sha1: createHash('sha1').update(source).digest('hex') };
}

/**
 * Sends commands through any supported client. Every command names its routing key explicitly, so
 * a store never depends on a client's own key finding: node-redis cluster clients have none for raw
 * commands, and a script's keys are known only to the caller.
 */
export interface RedisCommander {
  /** The client's kind. */
  readonly kind: RedisClientKind;
  /** Whether the client is a cluster client: every key of one script must then share one slot. */
  readonly cluster: boolean;
  /** Whether the client can subscribe to sharded channels (SSUBSCRIBE) on a cluster. */
  readonly shardedPubSub: boolean;
  /** Sends `args`, routed on a cluster to the master of `key` (the command's first key; `undefined`: any node). */
  send(key: string | undefined, args: readonly string[]): Promise<unknown>;
  /** Runs `script` over `keys` (routed by the first) with `args`: EVALSHA, then EVAL when the node lacks it. */
  script(script: RedisScript, keys: readonly string[], args: readonly string[]): Promise<unknown>;
}

const NOT_A_CLIENT =
  'must be a connected node-redis 5 or ioredis client (createClient(), createCluster(), new Redis() or new Redis.Cluster())';

function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('NOSCRIPT');
}

type Send = (key: string | undefined, args: string[]) => Promise<unknown>;

function senderOf(option: string, client: unknown): [RedisClientKind, Send, boolean] {
  if (typeof client !== 'object' || client === null) throw new WalletConfigError(option, NOT_A_CLIENT);
  const candidate = client as Record<string, unknown>;
  const call = candidate.call;
  const sendCommand = candidate.sendCommand;
  // ioredis has a `sendCommand` too, taking its own Command objects: look for its `call` first.
  if (typeof call === 'function') {
    const send: Send = (_key, [command, ...rest]) => call.call(client, command, ...rest) as Promise<unknown>;
    if (candidate.isCluster === true) {
      // ioredis subscribes to sharded channels on a cluster only when built with `shardedSubscribers`.
      const options = candidate.options as { shardedSubscribers?: unknown } | undefined;
      return ['ioredis-cluster', send, options?.shardedSubscribers === true];
    }
    return ['ioredis', send, typeof candidate.ssubscribe === 'function'];
  }
  const sharded = typeof candidate.sSubscribe === 'function';
  // The object createCluster() returns is told apart by what only a cluster has: node clients and masters.
  if (typeof candidate.nodeClient === 'function' && 'masters' in candidate) {
    // Its sendCommand is (firstKey, isReadonly, args, options); a single client's is (args, options).
    if (typeof sendCommand !== 'function' || sendCommand.length < 3) {
      throw new WalletConfigError(
        option,
        'looks like a node-redis cluster but has no sendCommand(firstKey, isReadonly, args): use node-redis 5',
      );
    }
    // Never read from replicas (isReadonly false): a journal read must see the last write.
    return [
      'node-redis-cluster',
      (key, args) => sendCommand.call(client, key, false, args) as Promise<unknown>,
      sharded,
    ];
  }
  if (typeof sendCommand === 'function' && sendCommand.length <= 2) {
    return ['node-redis', (_key, args) => sendCommand.call(client, args) as Promise<unknown>, sharded];
  }
  throw new WalletConfigError(option, NOT_A_CLIENT);
}

/**
 * The {@link RedisCommander} of `client`; refuses, naming `option`, anything it cannot drive, so a
 * wrong client fails at construction and never as a TypeError on the first call.
 */
export function redisCommander(option: string, client: unknown, logger?: WalletLogger): RedisCommander {
  const [kind, send, sharded] = senderOf(option, client);
  // node-redis throws an 'error' nobody listens for at the process; ioredis only prints it, so its
  // errors are taken over only when a logger can say them instead.
  if (kind === 'node-redis' || kind === 'node-redis-cluster' || logger !== undefined)
    guardShared(client, logger, 'the Redis client');
  return {
    kind,
    cluster: kind.endsWith('-cluster'),
    shardedPubSub: kind.endsWith('-cluster') && sharded,
    send: (key, args) => send(key, [...args]),
    script(script, keys, args) {
      const count = String(keys.length);
      let sent: Promise<unknown>;
      try {
        sent = send(keys[0], ['EVALSHA', script.sha1, count, ...keys, ...args]);
      } catch (error) {
        // A client that throws at once (closed) fails the call as one that rejects.
        return Promise.reject(error);
      }
      return sent.catch((error: unknown) => {
        // A node that restarted or took over the slot may not hold the script yet.
        if (!isNoScript(error)) throw error;
        return send(keys[0], ['EVAL', script.source, count, ...keys, ...args]);
      });
    },
  };
}
