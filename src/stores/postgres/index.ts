/**
 * PostgreSQL adapters: a payment journal, a webhook dedupe store, a token store and transaction events
 * (LISTEN/NOTIFY) shared by every instance,
 * through a `pg` Pool or client the merchant passes in (`pg` is an optional peer dependency).
 *
 * @packageDocumentation
 * @module merchant-wallet/postgres
 */

export type { TransactionEventsHealth, TransactionEventsState } from '../../polling/event-source-health.js';
export type {
  SharedTransactionEvents,
  TransactionEventsErrorHandler,
  TransactionEventsErrorInfo,
} from '../shared-transaction-events.js';
export type { PostgresDedupeStore, PostgresDedupeStoreOptions } from './dedupe.js';
export { createPostgresDedupeStore } from './dedupe.js';
export type { GroupCommitOptions } from './group-commit.js';
export type { PostgresJournal, PostgresJournalOptions } from './journal.js';
export { createPostgresJournal } from './journal.js';
export type { TransactionTimeouts } from './journal-sweep.js';
export { DEFAULT_TRANSACTION_TIMEOUTS } from './journal-sweep.js';
export type {
  PostgresListenClient,
  PostgresListenPool,
  PostgresNotification,
  PostgresPooledListenClient,
} from './listen-session.js';
export type { PostgresQueryable, PostgresQueryResult } from './queryable.js';
export type { PostgresTables } from './schema.js';
export {
  DEFAULT_DEDUPE_TABLE,
  DEFAULT_JOURNAL_TABLE,
  DEFAULT_TOKEN_TABLE,
  migratePostgres,
  postgresSchemaSql,
} from './schema.js';
export type { PostgresTokenStore, PostgresTokenStoreOptions } from './tokens.js';
export { createPostgresTokenStore } from './tokens.js';
export type { PostgresTransactionEvents, PostgresTransactionEventsOptions } from './transaction-events.js';
export { createPostgresTransactionEvents } from './transaction-events.js';
