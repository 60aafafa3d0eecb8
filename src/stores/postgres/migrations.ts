/**
 * The PostgreSQL schema as numbered steps. A database records, per set of tables, the last step it
 * ran (`merchant_wallet_schema_versions`), so each step runs once; every step is also idempotent, so
 * a database made by hand, or by a version that kept no record, upgrades in place all the same.
 * A new column, state or table is a new step at the end, never an edit of an old one.
 */

/** The quoted table names a migration writes to. */
export interface QuotedTables {
  readonly journal: string;
  readonly dedupe: string;
  readonly tokens: string;
}

/** One step of the schema. */
export interface PostgresMigration {
  /** Steps run in this order; a database at version `n` runs those above `n`. */
  readonly version: number;
  /** What the step changes, for the record and the docs. */
  readonly change: string;
  /** Its statements, for these tables. */
  readonly sql: (tables: QuotedTables) => string;
}

/** An index name made of the table's (schema-qualified) name and `suffix`, quoted. */
function indexName(table: string, suffix: string): string {
  return `"${table.replaceAll('"', '').replaceAll('.', '_')}_${suffix}"`;
}

/** A constraint name made of the table's own name and `suffix`, as PostgreSQL names a column's CHECK. */
function constraintName(table: string, suffix: string): string {
  const bare = table.split('.').pop() ?? table;
  return `"${bare.replaceAll('"', '')}_${suffix}"`;
}

const STATES_V2 = `'sending', 'unknown', 'applied', 'refused', 'closed'`;
const STATES_V3 = `'sending', 'unknown', 'accepted', 'completed', 'failed', 'refused', 'closed'`;

/** Every step, oldest first. */
export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [
  {
    version: 1,
    change: 'the journal and webhook dedupe tables',
    sql: ({ journal, dedupe }) => `CREATE TABLE IF NOT EXISTS ${journal} (
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
CREATE INDEX IF NOT EXISTS ${indexName(dedupe, 'expires_at')} ON ${dedupe} (expires_at);`,
  },
  {
    version: 2,
    change: "the sending merchant's identity on each intent, and the state 'closed'",
    sql: ({ journal }) => `ALTER TABLE ${journal} ADD COLUMN IF NOT EXISTS merchant text;
ALTER TABLE ${journal} DROP CONSTRAINT IF EXISTS ${constraintName(journal, 'state_check')};
ALTER TABLE ${journal} DROP CONSTRAINT IF EXISTS ${constraintName(journal, 'state_v2')};
ALTER TABLE ${journal} ADD CONSTRAINT ${constraintName(journal, 'state_v2')} CHECK (state IN (${STATES_V2}));`,
  },
  {
    version: 3,
    change: 'processing leases on webhook dedupe keys (a key without a lease is processed)',
    sql: ({ dedupe }) => `ALTER TABLE ${dedupe} ADD COLUMN IF NOT EXISTS lease text;`,
  },
  {
    version: 4,
    change: 'how many calls recorded each intent, and which call created it',
    sql: ({ journal }) => `ALTER TABLE ${journal} ADD COLUMN IF NOT EXISTS records integer NOT NULL DEFAULT 1;
ALTER TABLE ${journal} ADD COLUMN IF NOT EXISTS recorded_by text;`,
  },
  {
    version: 5,
    change: "the token vault's table: sealed tokens, login states and authorization notes",
    sql: ({ tokens }) => `CREATE TABLE IF NOT EXISTS ${tokens} (
  key text COLLATE "C" PRIMARY KEY,
  value text NOT NULL,
  expires_at timestamptz
);
CREATE INDEX IF NOT EXISTS ${indexName(tokens, 'expires_at')} ON ${tokens} (expires_at) WHERE expires_at IS NOT NULL;`,
  },
  {
    version: 6,
    change: "the user's e-mail on deposit intents paid by { user } through the token vault",
    sql: ({ journal }) => `ALTER TABLE ${journal} ADD COLUMN IF NOT EXISTS user_email text;`,
  },
  {
    version: 7,
    change: 'settlement and the sweeper: settled_at, a lease per intent, and when it is next checked',
    sql: ({ journal }) => `ALTER TABLE ${journal} ADD COLUMN IF NOT EXISTS settled_at timestamptz;
ALTER TABLE ${journal} ADD COLUMN IF NOT EXISTS lease text;
ALTER TABLE ${journal} ADD COLUMN IF NOT EXISTS lease_until timestamptz;
ALTER TABLE ${journal} ADD COLUMN IF NOT EXISTS next_check_at timestamptz;
ALTER TABLE ${journal} ADD COLUMN IF NOT EXISTS checks integer NOT NULL DEFAULT 0;
CREATE INDEX IF NOT EXISTS ${indexName(journal, 'due')} ON ${journal} (updated_at)
  WHERE settled_at IS NULL AND state IN ('sending', 'unknown', 'applied');`,
  },
  {
    version: 8,
    change: 'listing the journal by recording time (journal.list with since, until and a cursor)',
    sql: ({ journal }) =>
      `CREATE INDEX IF NOT EXISTS ${indexName(journal, 'created')} ON ${journal} (created_at, reference_id COLLATE "C");`,
  },
  {
    version: 9,
    change: "the caller's own labels on each intent (metadata, such as an order id)",
    sql: ({ journal }) => `ALTER TABLE ${journal} ADD COLUMN IF NOT EXISTS metadata jsonb;`,
  },
  {
    version: 10,
    change:
      "the state 'applied' split by outcome: 'accepted' while pending, 'completed' or 'failed' once final",
    sql: ({
      journal,
    }) => `ALTER TABLE ${journal} DROP CONSTRAINT IF EXISTS ${constraintName(journal, 'state_v2')};
UPDATE ${journal} SET state = CASE WHEN transaction_status IN ('completed', 'failed') THEN transaction_status ELSE 'accepted' END
  WHERE state = 'applied';
ALTER TABLE ${journal} DROP CONSTRAINT IF EXISTS ${constraintName(journal, 'state_v3')};
ALTER TABLE ${journal} ADD CONSTRAINT ${constraintName(journal, 'state_v3')} CHECK (state IN (${STATES_V3}));
DROP INDEX IF EXISTS ${indexName(journal, 'due')};
CREATE INDEX ${indexName(journal, 'due')} ON ${journal} (updated_at)
  WHERE settled_at IS NULL AND state IN ('sending', 'unknown', 'accepted', 'completed', 'failed');`,
  },
  {
    version: 11,
    change: "the fingerprint of the sending client's API key, to tell one merchant under two identities",
    sql: ({ journal }) => `ALTER TABLE ${journal} ADD COLUMN IF NOT EXISTS key_fingerprint text;`,
  },
  {
    version: 12,
    change:
      'refusals are settled once, for onRefused: earlier ones count as settled, and the due index covers the rest',
    sql: ({
      journal,
    }) => `UPDATE ${journal} SET settled_at = updated_at WHERE state = 'refused' AND settled_at IS NULL;
DROP INDEX IF EXISTS ${indexName(journal, 'due')};
CREATE INDEX ${indexName(journal, 'due')} ON ${journal} (updated_at)
  WHERE settled_at IS NULL AND state IN ('sending', 'unknown', 'accepted', 'completed', 'failed', 'refused');`,
  },
  {
    version: 13,
    change:
      'which path settled each payment (settled_by: answer, status_read, webhook, resolve_outcome, recover, sweeper), for journalHealth()',
    sql: ({ journal }) => `ALTER TABLE ${journal} ADD COLUMN IF NOT EXISTS settled_by text;`,
  },
];

/** The version a database is at once {@link POSTGRES_MIGRATIONS} have all run. */
export const POSTGRES_SCHEMA_VERSION = POSTGRES_MIGRATIONS.length;
