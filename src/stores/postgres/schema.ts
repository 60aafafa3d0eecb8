import { POSTGRES_MIGRATIONS, POSTGRES_SCHEMA_VERSION, type QuotedTables } from './migrations.js';
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
  /**
   * Table of the token vault's store.
   * @default 'merchant_wallet_tokens'
   */
  tokenTable?: string;
}

/** Default table of the payment journal. */
export const DEFAULT_JOURNAL_TABLE = 'merchant_wallet_payment_intents';
/** Default table of the webhook dedupe store. */
export const DEFAULT_DEDUPE_TABLE = 'merchant_wallet_webhook_dedupe';
/** Default table of the token vault's store. */
export const DEFAULT_TOKEN_TABLE = 'merchant_wallet_tokens';
/** The table where each set of tables records the last schema version it was migrated to. */
export const SCHEMA_VERSIONS_TABLE = 'merchant_wallet_schema_versions';

function quotedTables(tables: PostgresTables): QuotedTables {
  return {
    journal: checkTable('journalTable', tables.journalTable ?? DEFAULT_JOURNAL_TABLE),
    dedupe: checkTable('dedupeTable', tables.dedupeTable ?? DEFAULT_DEDUPE_TABLE),
    tokens: checkTable('tokenTable', tables.tokenTable ?? DEFAULT_TOKEN_TABLE),
  };
}

/**
 * The tables' names are the record's key, so two journals in one database migrate apart. The
 * token table joined later: it is named in the key only when not the default, so databases
 * migrated before keep their record, and a token table of another name runs every (idempotent) step.
 */
function schemaKey(quoted: QuotedTables): string {
  const tokens = quoted.tokens === checkTable('tokenTable', DEFAULT_TOKEN_TABLE) ? '' : `|${quoted.tokens}`;
  return `${quoted.journal}|${quoted.dedupe}${tokens}`;
}

/**
 * The schema version these tables were migrated to (0 when never), and the version this package
 * needs. A read only: it creates nothing, so `merchant-wallet doctor` can ask it of any database.
 * @internal
 */
export async function readPostgresSchemaVersion(
  db: PostgresQueryable,
  tables: PostgresTables = {},
): Promise<{ readonly version: number; readonly current: number }> {
  const queryable = checkQueryable('db', db);
  const key = schemaKey(quotedTables(tables));
  try {
    const result = await queryable.query(`SELECT version FROM ${SCHEMA_VERSIONS_TABLE} WHERE tables = $1`, [
      key,
    ]);
    const row = result.rows[0] as { version?: unknown } | undefined;
    return { version: Number(row?.version ?? 0), current: POSTGRES_SCHEMA_VERSION };
  } catch (error) {
    // 42P01: no such table, so no migration ever ran here.
    if ((error as { code?: unknown }).code === '42P01')
      return { version: 0, current: POSTGRES_SCHEMA_VERSION };
    throw error;
  }
}

/**
 * The SQL that brings the tables to the current schema version: one transaction that takes an
 * advisory lock (so several processes may run it at once), reads the version these tables are at,
 * and runs each later step. Run it with {@link migratePostgres}, or
 * paste it into your own migration tool: running it again changes nothing.
 *
 * @throws {WalletConfigError} when a table name is not a plain identifier.
 */
export function postgresSchemaSql(tables: PostgresTables = {}): string {
  const quoted = quotedTables(tables);
  const key = `'${schemaKey(quoted)}'`;
  const steps = POSTGRES_MIGRATIONS.map(
    (step) => `  IF current < ${step.version} THEN
    -- ${step.version}: ${step.change}
${step.sql(quoted).replace(/^/gm, '    ')}
  END IF;`,
  ).join('\n');
  return `SELECT pg_advisory_xact_lock(hashtext('merchant-wallet schema'));
CREATE TABLE IF NOT EXISTS ${SCHEMA_VERSIONS_TABLE} (
  tables text PRIMARY KEY,
  version integer NOT NULL,
  migrated_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
DO $merchant_wallet$
DECLARE current integer;
BEGIN
  SELECT version INTO current FROM ${SCHEMA_VERSIONS_TABLE} WHERE tables = ${key};
  current := COALESCE(current, 0);
${steps}
  INSERT INTO ${SCHEMA_VERSIONS_TABLE} (tables, version) VALUES (${key}, ${POSTGRES_SCHEMA_VERSION})
  ON CONFLICT (tables) DO UPDATE SET version = EXCLUDED.version, migrated_at = clock_timestamp()
  WHERE ${SCHEMA_VERSIONS_TABLE}.version < EXCLUDED.version;
END
$merchant_wallet$;`;
}

/**
 * Creates the journal and dedupe tables, or upgrades them in place to the current schema version.
 * Safe to run from several processes at once, and on every start: an advisory lock serialises the
 * runs, and steps already taken are not taken again.
 *
 * @example
 * await migratePostgres(pool);
 * @throws {WalletConfigError} when `db` is not a pg pool or client, or a table name is invalid.
 */
export async function migratePostgres(db: PostgresQueryable, tables: PostgresTables = {}): Promise<void> {
  const queryable = checkQueryable('db', db);
  // Several statements in one simple query run as one transaction, so the lock holds until the end.
  await queryable.query(postgresSchemaSql(tables));
}
