import type { RedisCommander } from './commander.js';

/**
 * Which pub/sub a Redis transaction-event source uses: `sharded` (SSUBSCRIBE/SPUBLISH, Redis 7+),
 * whose messages stay on the shard owning the channel's slot; or `plain` (SUBSCRIBE/PUBLISH).
 */
export type RedisPubSubMode = 'sharded' | 'plain';

/**
 * Picks the pub/sub for a client and server: sharded only on a cluster whose client can subscribe to
 * sharded channels and whose server (`redis_version`) is 7 or later. Plain pub/sub works everywhere,
 * but on a cluster every node forwards every message to every other node over the cluster bus; on a
 * single node the two cost the same, so plain keeps Redis 6 working.
 */
export function choosePubSubMode(
  commander: Pick<RedisCommander, 'cluster' | 'shardedPubSub'>,
  serverVersion: string,
): RedisPubSubMode {
  const major = Number.parseInt(serverVersion, 10);
  return commander.cluster && commander.shardedPubSub && major >= 7 ? 'sharded' : 'plain';
}

/** The `redis_version` of the node answering INFO (any node of a cluster: they run one version). */
export async function redisServerVersion(commander: RedisCommander): Promise<string> {
  const info = String(await commander.send(undefined, ['INFO', 'server']));
  return /^redis_version:([^\r\n]+)/m.exec(info)?.[1] ?? '0';
}

/** {@link choosePubSubMode} for a connected client, asking its server for the version. */
export async function pubSubModeOf(commander: RedisCommander): Promise<RedisPubSubMode> {
  if (!commander.cluster || !commander.shardedPubSub) return 'plain';
  return choosePubSubMode(commander, await redisServerVersion(commander));
}
