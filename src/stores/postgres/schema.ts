import { checkQueryable, checkTable, type PostgresQueryable } from './queryable.js';

/** Table names of the PostgreSQL adapters; defaults keep them apart from the merchant's own tables. */
export interface PostgresTables {
  /**
   * Table of the payment journal.
   * @default 'merchant_wallet_payment_intents'
   */
  journalTable?: string;
  /**
   * Table of the webhook dedupe store.
   * @default 'merchant_wallet_webhook_dedupe'
   */
  dedupeTable?: string;
}

/** Default table of the payment journal. */
export const DEFAULT_JOURNAL_TABLE = 'merchant_wallet_payment_intents';
/** Default table of the webhook dedupe store. */
export const DEFAULT_DEDUPE_TABLE = 'merchant_wallet_webhook_dedupe';

function indexName(table: string, suffix: string): string {
  return `"${table.replaceAll('"', '').replaceAll('.', '_')}_${suffix}"`;
}

/**
 * The SQL that creates the journal and dedupe tables (idempotent: `IF NOT EXISTS`). Run it with
 * {@link migratePostgres}, or paste it into your own migration tool.
 *
 * @throws {WalletConfigError} when a table name is not a plain identifier.
 */
export function postgresSchemaSql(tables: PostgresTables = {}): string {
  const journal = checkTable('journalTable', tables.journalTable ?? DEFAULT_JOURNAL_TABLE);
  const dedupe = checkTable('dedupeTable', tables.dedupeTable ?? DEFAULT_DEDUPE_TABLE);
  return `CREATE TABLE IF NOT EXISTS ${journal} (
  reference_id text PRIMARY KEY,
  endpoint text NOT NULL CHECK (endpoint IN ('deposit', 'withdraw')),
  body jsonb NOT NULL,
  state text NOT NULL CHECK (state IN ('sending', 'unknown', 'applied', 'refused')),
  transaction_id text,
  transaction_status text,
  reason text,
  seq bigserial NOT NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX IF NOT EXISTS ${indexName(journal, 'state')} ON ${journal} (state, seq);
CREATE INDEX IF NOT EXISTS ${indexName(journal, 'transaction_id')} ON ${journal} (transaction_id) WHERE transaction_id IS NOT NULL;
CREATE TABLE IF NOT EXISTS ${dedupe} (
  key text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS ${indexName(dedupe, 'expires_at')} ON ${dedupe} (expires_at);`;
}

/**
 * Creates the journal and dedupe tables if they do not exist. Safe to run from several processes at
 * once: an advisory lock serialises them.
 *
 * @example
 * await migratePostgres(pool);
 * @throws {WalletConfigError} when `db` is not a pg pool or client, or a table name is invalid.
 */
export async function migratePostgres(db: PostgresQueryable, tables: PostgresTables = {}): Promise<void> {
  const queryable = checkQueryable('db', db);
  const sql = postgresSchemaSql(tables);
  // Several statements in one simple query run as one transaction, so the lock holds until the end.
  await queryable.query(`SELECT pg_advisory_xact_lock(hashtext('merchant-wallet schema'));\n${sql}`);
}
