import { checkId, checkLimit, checkNewIntent, checkState, checkUpdate } from '../../journal/merge.js';
import type { PaymentIntent, PaymentIntentUpdate, PaymentJournal } from '../../journal/types.js';
import { checkOptions } from '../checks.js';
import { checkQueryable, checkTable, type PostgresQueryable } from './queryable.js';
import { DEFAULT_JOURNAL_TABLE } from './schema.js';

/** Options of {@link createPostgresJournal}. */
export interface PostgresJournalOptions {
  /** A `pg` Pool on the database where {@link migratePostgres} created the table. */
  db: PostgresQueryable;
  /**
   * The table.
   * @default 'merchant_wallet_payment_intents'
   */
  table?: string;
}

/** A {@link PaymentJournal} in PostgreSQL that can also write inside the merchant's own transaction. */
export interface PostgresJournal extends PaymentJournal {
  /**
   * The same journal writing through `client`, e.g. inside your own transaction, so the intent is
   * committed together with your order row (the transactional outbox) or not at all.
   *
   * @example
   * await client.query('BEGIN');
   * await client.query('INSERT INTO orders …');
   * await journal.inTransaction(client).record({ referenceId, endpoint: 'deposit', body });
   * await client.query('COMMIT');
   */
  inTransaction(client: PostgresQueryable): PaymentJournal;
}

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;
const COLUMNS = `reference_id, endpoint, body, merchant, state, transaction_id, transaction_status, reason,
  to_char(created_at AT TIME ZONE 'UTC', ${ISO}) AS created_at, to_char(updated_at AT TIME ZONE 'UTC', ${ISO}) AS updated_at`;

interface IntentRow {
  reference_id: string;
  endpoint: 'deposit' | 'withdraw';
  body: Record<string, unknown>;
  merchant: string | null;
  state: PaymentIntent['state'];
  transaction_id: string | null;
  transaction_status: string | null;
  reason: string | null;
  created_at: string;
  updated_at: string;
}

function toIntent(row: unknown): PaymentIntent | undefined {
  if (row === undefined) return undefined;
  const r = row as IntentRow;
  return {
    referenceId: r.reference_id,
    endpoint: r.endpoint,
    body: r.body,
    merchant: r.merchant ?? undefined,
    state: r.state,
    transactionId: r.transaction_id ?? undefined,
    transactionStatus: r.transaction_status ?? undefined,
    reason: r.reason ?? undefined,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function updateSql(table: string, where: 'reference_id' | 'transaction_id'): string {
  // A definite state is never replaced by an indefinite one. An update whose `ifState` does not hold
  // changes nothing; the row is then read back as it is, in the same statement.
  return `WITH changed AS (UPDATE ${table} SET
  state = CASE WHEN $2::text IS NULL OR (state IN ('applied', 'refused', 'closed') AND $2::text IN ('sending', 'unknown')) THEN state ELSE $2::text END,
  transaction_id = COALESCE($3::text, transaction_id),
  transaction_status = COALESCE($4::text, transaction_status),
  reason = COALESCE($5::text, reason),
  updated_at = clock_timestamp()
WHERE ${where} = $1 AND ($6::text[] IS NULL OR state = ANY($6::text[])) RETURNING ${COLUMNS})
SELECT * FROM changed UNION ALL SELECT ${COLUMNS} FROM ${table}
WHERE ${where} = $1 AND NOT EXISTS (SELECT 1 FROM changed) LIMIT 1`;
}

function journalOn(db: PostgresQueryable, table: string): PaymentJournal {
  const select = `SELECT ${COLUMNS} FROM ${table}`;
  const byReference = updateSql(table, 'reference_id');
  const byTransaction = updateSql(table, 'transaction_id');
  const values = (id: string, change: PaymentIntentUpdate, transactionId = change.transactionId) => [
    id,
    change.state ?? null,
    transactionId ?? null,
    change.transactionStatus ?? null,
    change.reason ?? null,
    change.ifState ?? null,
  ];
  return {
    async record(intent) {
      checkNewIntent(intent);
      const inserted = await db.query(
        // One clock reading for both timestamps: two column defaults would each read the clock. An
        // intent under which nothing moved (refused, closed) starts over; any other is kept as it is.
        `INSERT INTO ${table} AS held (reference_id, endpoint, body, merchant, state, created_at, updated_at)
SELECT $1, $2, $3::jsonb, $4, 'sending', at, at FROM (SELECT clock_timestamp() AS at) AS clock
ON CONFLICT (reference_id) DO UPDATE SET endpoint = EXCLUDED.endpoint, body = EXCLUDED.body,
  merchant = EXCLUDED.merchant, state = 'sending', transaction_id = NULL, transaction_status = NULL,
  reason = NULL, created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at
WHERE held.state IN ('refused', 'closed') RETURNING ${COLUMNS}`,
        [intent.referenceId, intent.endpoint, JSON.stringify(intent.body), intent.merchant ?? null],
      );
      // A separate statement sees a row another transaction committed while this insert waited.
      const row =
        inserted.rows[0] ??
        (await db.query(`${select} WHERE reference_id = $1`, [intent.referenceId])).rows[0];
      return toIntent(row) as PaymentIntent;
    },
    async update(referenceId, change) {
      checkId('referenceId', referenceId);
      checkUpdate(change);
      return toIntent((await db.query(byReference, values(referenceId, change))).rows[0]);
    },
    async updateByTransactionId(transactionId, change) {
      checkId('transactionId', transactionId);
      checkUpdate(change);
      return toIntent((await db.query(byTransaction, values(transactionId, change, undefined))).rows[0]);
    },
    async get(referenceId) {
      checkId('referenceId', referenceId);
      return toIntent((await db.query(`${select} WHERE reference_id = $1`, [referenceId])).rows[0]);
    },
    async list(state, options) {
      checkState(state);
      const limit = checkLimit(options);
      const result = await db.query(`${select} WHERE state = $1 ORDER BY seq LIMIT $2`, [
        state,
        limit ?? null,
      ]);
      return result.rows.map((row) => toIntent(row) as PaymentIntent);
    },
  };
}

/**
 * A {@link PaymentJournal} in PostgreSQL (run {@link migratePostgres} once first).
 *
 * @example
 * const journal = createPostgresJournal({ db: pool });
 * const wallet = new WalletClient({ apiKey, baseUrl, journal });
 * @throws {WalletConfigError} naming the option at fault.
 */
export function createPostgresJournal(options: PostgresJournalOptions): PostgresJournal {
  checkOptions('createPostgresJournal', options);
  const db = checkQueryable('db', options.db);
  const table = checkTable('table', options.table ?? DEFAULT_JOURNAL_TABLE);
  return {
    ...journalOn(db, table),
    inTransaction: (client) => journalOn(checkQueryable('client', client), table),
  };
}
