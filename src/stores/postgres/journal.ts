import { WalletConfigError } from '../../errors.js';
import { checkId, checkLimit, checkNewIntent, checkState, checkUpdate } from '../../journal/checks.js';
import { listWithQueries } from '../../journal/query.js';
import type { NewPaymentIntent, PaymentIntent, PaymentJournal } from '../../journal/types.js';
import type { WalletLogger } from '../../logger.js';
import { checkLogger, checkOptions } from '../checks.js';
import { guardShared } from '../connection-errors.js';
import { boundedWork } from './bounded-transaction.js';
import { GroupCommit, type GroupCommitOptions } from './group-commit.js';
import {
  type ReferenceUpdate,
  recordBatch,
  recordBatchSql,
  updateBatch,
  updateBatchSql,
} from './journal-batches.js';
import { queryPage } from './journal-query.js';
import {
  COLUMNS,
  finalStatusSticksSql,
  freeSendingLeaseSql,
  nextStateSql,
  settledBySql,
  toIntent,
} from './journal-rows.js';
import { DEFAULT_TRANSACTION_TIMEOUTS, sweepMethods, type TransactionTimeouts } from './journal-sweep.js';
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
  /**
   * Group commit: records made at the same time share one statement, and so one durable commit,
   * and so do outcome updates, settlement claims and the sweeper's releases; each call still
   * resolves only once its own write committed. A lone write is sent as soon as the calling code
   * yields. `false` sends one statement per write. Writes through `inTransaction` are never grouped.
   * @default { maxBatch: 256, maxInFlight: 2 }
   */
  groupCommit?: GroupCommitOptions | false;
  /**
   * Server-side bounds of the journal's own writes: the settlement transaction `onSettled` runs in
   * (all three, with `SET LOCAL`), and on a pool each statement of records, outcome updates and
   * sweeper releases (statement and lock bounds, local to the statement and sent in its round
   * trip): how long a paused or partitioned instance can block the others. docs/settlement.md.
   * @default { statementMs: 30000, lockMs: 5000, idleInTransactionMs: 10000 }
   */
  transactionTimeouts?: TransactionTimeouts;
  /**
   * Where connections the server drops are reported (a warning each); never thrown at the process.
   * Without it they are dropped silently, and the work on them still fails or is retried as usual.
   */
  logger?: WalletLogger;
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

/** The SQL updating the intent of a transaction id (never grouped: a webhook's status, not a payment). */
function updateByTransactionSql(table: string): string {
  // A definite state is never replaced by an indefinite one. An update whose `ifState` does not hold
  // changes nothing; the row is then read back as it is, in the same statement.
  return `WITH changed AS (UPDATE ${table} SET
  settled_by = ${settledBySql('$2::text', '$8::text')},
  state = ${nextStateSql('$2::text')},
  transaction_id = COALESCE($3::text, transaction_id),
  transaction_status = ${finalStatusSticksSql('$4::text')},
  reason = COALESCE($5::text, reason),
  ${freeSendingLeaseSql('$2::text')},
  updated_at = clock_timestamp()
WHERE transaction_id = $1 AND ($6::text[] IS NULL OR state = ANY($6::text[]))
  AND ($7::text IS NULL OR recorded_by = $7::text) RETURNING ${COLUMNS})
SELECT * FROM changed UNION ALL SELECT ${COLUMNS} FROM ${table}
WHERE transaction_id = $1 AND NOT EXISTS (SELECT 1 FROM changed) LIMIT 1`;
}

/** How a journal's own transactions are bounded, and where dropped connections are reported. */
interface JournalSettings {
  readonly timeouts: Required<TransactionTimeouts>;
  readonly logger: WalletLogger | undefined;
}

function journalOn(
  db: PostgresQueryable,
  table: string,
  grouping: GroupCommitOptions | false,
  settings: JournalSettings,
): PaymentJournal {
  const select = `SELECT ${COLUMNS} FROM ${table}`;
  const recordSql = { record: recordBatchSql(table), select };
  const updateSql = { update: updateBatchSql(table), select };
  const byTransaction = updateByTransactionSql(table);
  // On a pool, each statement of records or updates (a batch, under group commit) carries the
  // settlement's statement and lock bounds: a lock held by a cut-off instance stalls it no longer.
  const bounded = boundedWork(db, settings.timeouts, settings.logger, 'journal write');
  const writeRecords = (intents: readonly NewPaymentIntent[]) =>
    bounded((client) => recordBatch(client, recordSql, intents));
  const writeUpdates = (updates: readonly ReferenceUpdate[]) =>
    bounded((client) => updateBatch(client, updateSql, updates));
  const records = grouping && new GroupCommit(writeRecords, (intent) => intent.referenceId, grouping);
  const updates = grouping && new GroupCommit(writeUpdates, (update) => update.referenceId, grouping);
  return {
    async record(intent) {
      checkNewIntent(intent);
      return records ? records.add(intent) : ((await writeRecords([intent]))[0] as PaymentIntent);
    },
    async update(referenceId, change) {
      checkId('referenceId', referenceId);
      checkUpdate(change);
      return updates
        ? updates.add({ referenceId, change })
        : (await writeUpdates([{ referenceId, change }]))[0];
    },
    async updateByTransactionId(transactionId, change) {
      checkId('transactionId', transactionId);
      checkUpdate(change);
      const values = [
        transactionId,
        change.state ?? null,
        null,
        change.transactionStatus ?? null,
        change.reason ?? null,
        change.ifState ?? null,
        change.ifRecordedBy ?? null,
        change.settledBy ?? null,
      ];
      return toIntent((await db.query(byTransaction, values)).rows[0]);
    },
    async get(referenceId) {
      checkId('referenceId', referenceId);
      return toIntent((await db.query(`${select} WHERE reference_id = $1`, [referenceId])).rows[0]);
    },
    list: listWithQueries(
      async (state, options) => {
        checkState(state);
        const limit = checkLimit(options);
        const result = await db.query(`${select} WHERE state = $1 ORDER BY seq LIMIT $2`, [
          state,
          limit ?? null,
        ]);
        return result.rows.map((row) => toIntent(row) as PaymentIntent);
      },
      (query) => queryPage(db, select, query),
    ),
    ...sweepMethods(db, table, grouping, settings.timeouts, settings.logger),
  };
}

const DEFAULT_GROUP_COMMIT = { maxBatch: 256, maxInFlight: 2 } as const;

function checkGroupCommit(value: unknown): GroupCommitOptions | false {
  if (value === false) return false;
  if (value === undefined) return DEFAULT_GROUP_COMMIT;
  if (typeof value !== 'object' || value === null)
    throw new WalletConfigError('groupCommit', 'must be false or { maxBatch?, maxInFlight? }');
  const { maxBatch = DEFAULT_GROUP_COMMIT.maxBatch, maxInFlight = DEFAULT_GROUP_COMMIT.maxInFlight } =
    value as GroupCommitOptions;
  for (const [key, number, max] of [
    ['maxBatch', maxBatch, 10_000],
    ['maxInFlight', maxInFlight, 64],
  ] as const) {
    if (!Number.isSafeInteger(number) || number < 1 || number > max)
      throw new WalletConfigError(`groupCommit.${key}`, `must be a whole number from 1 to ${max}`);
  }
  return { maxBatch, maxInFlight };
}

function checkTimeouts(value: unknown): Required<TransactionTimeouts> {
  if (value === undefined) return DEFAULT_TRANSACTION_TIMEOUTS;
  if (typeof value !== 'object' || value === null)
    throw new WalletConfigError(
      'transactionTimeouts',
      'must be { statementMs?, lockMs?, idleInTransactionMs? }',
    );
  const timeouts = { ...DEFAULT_TRANSACTION_TIMEOUTS, ...(value as TransactionTimeouts) };
  for (const key of Object.keys(value)) {
    if (!(key in DEFAULT_TRANSACTION_TIMEOUTS))
      throw new WalletConfigError(`transactionTimeouts.${key}`, 'is not an option');
  }
  for (const [key, ms] of Object.entries(timeouts)) {
    if (!Number.isSafeInteger(ms) || ms < 0 || ms > 2_147_483_647)
      throw new WalletConfigError(
        `transactionTimeouts.${key}`,
        'must be a whole number of milliseconds, 0 (off) or more',
      );
  }
  return timeouts;
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
  const grouping = checkGroupCommit(options.groupCommit);
  const settings = {
    timeouts: checkTimeouts(options.transactionTimeouts),
    logger: checkLogger(options.logger),
  };
  guardShared(db, settings.logger, 'the journal pool');
  return {
    ...journalOn(db, table, grouping, settings),
    inTransaction: (client) => journalOn(checkQueryable('client', client), table, false, settings),
  };
}
