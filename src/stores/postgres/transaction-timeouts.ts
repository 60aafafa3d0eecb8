/** The server-side bounds the journal's own writes run under on PostgreSQL, and their defaults. */

/**
 * The server-side bounds of the journal's own transactions, in milliseconds (0 turns one off): how
 * long a transaction of a paused or partitioned instance can block the others.
 */
export interface TransactionTimeouts {
  /**
   * `statement_timeout`: the longest one statement of the transaction runs.
   * @default 30000
   */
  readonly statementMs?: number;
  /**
   * `lock_timeout`: the longest a statement of the transaction waits for a lock another holds.
   * @default 5000
   */
  readonly lockMs?: number;
  /**
   * `idle_in_transaction_session_timeout`: the longest the transaction may sit open between
   * statements (while `onSettled` works elsewhere, or its instance is cut off) before the server
   * ends it, rolls it back and frees its locks.
   * @default 10000
   */
  readonly idleInTransactionMs?: number;
}

/** The defaults of {@link TransactionTimeouts}. */
export const DEFAULT_TRANSACTION_TIMEOUTS: Required<TransactionTimeouts> = {
  statementMs: 30_000,
  lockMs: 5_000,
  idleInTransactionMs: 10_000,
};
