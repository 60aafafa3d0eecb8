/**
 * Redis adapters: a payment journal, a webhook dedupe store, a token store and transaction events
 * (pub/sub) shared by every instance, through a node-redis 5 or ioredis client the merchant passes in
 * (both are optional peer dependencies), on a single node or on Redis Cluster.
 *
 * @packageDocumentation
 * @module merchant-wallet/redis
 */

export type { TransactionEventsHealth, TransactionEventsState } from '../../polling/event-source-health.js';
export type {
  SharedTransactionEvents,
  TransactionEventsErrorHandler,
  TransactionEventsErrorInfo,
} from '../shared-transaction-events.js';
export type { IoRedisLike, NodeRedisClusterLike, NodeRedisLike, RedisClientLike } from './commander.js';
export type { RedisDedupeStoreOptions } from './dedupe.js';
export { createRedisDedupeStore } from './dedupe.js';
export type { RedisJournalOptions } from './journal.js';
export { createRedisJournal } from './journal.js';
export type { MigrateRedisJournalPrefixOptions, MigrateRedisJournalPrefixReport } from './legacy-prefix.js';
export { migrateRedisJournalPrefix } from './legacy-prefix.js';
export type { RedisPubSubMode } from './pubsub.js';
export type { RedisTokenStore, RedisTokenStoreOptions } from './tokens.js';
export { createRedisTokenStore } from './tokens.js';
export type { RedisTransactionEvents, RedisTransactionEventsOptions } from './transaction-events.js';
export { createRedisTransactionEvents } from './transaction-events.js';
