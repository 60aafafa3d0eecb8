/**
 * Conformance checks for {@link PaymentJournal}, {@link WebhookDedupeStore} and {@link TokenStore} adapters: the memory,
 * PostgreSQL and Redis adapters pass them, and so must one a merchant writes for another store.
 *
 * @packageDocumentation
 * @module merchant-wallet/conformance
 */

export type { TokenStore, TokenStoreEntry } from '../auth/token-store.js';
export type { PaymentJournal } from '../journal/types.js';
export type { WebhookDedupeStore } from '../webhooks/dedupe.js';
export type { ConformanceCheck } from './check.js';
export { ConformanceError } from './check.js';
export type { DedupeStoreFactory } from './dedupe-checks.js';
export { dedupeConformanceChecks } from './dedupe-checks.js';
export type { JournalFactory } from './journal-checks.js';
export { journalConformanceChecks } from './journal-checks.js';
export { queryConformanceChecks } from './query-checks.js';
export { sweepConformanceChecks } from './sweep-checks.js';
export type { TokenStoreFactory } from './token-checks.js';
export { tokenStoreConformanceChecks } from './token-checks.js';
