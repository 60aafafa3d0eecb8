import { WalletConfigError } from '../../errors.js';
import type { SettlementQueryResult } from '../../journal/types.js';

/**
 * What the PostgreSQL adapters need of `pg`: a `Pool`, a `PoolClient` or a `Client` all fit.
 * Pass a client inside your own transaction to write next to your order row.
 */
export interface PostgresQueryable {
  /** Runs one statement with `$1…` parameters. */
  query(text: string, values?: unknown[]): Promise<PostgresQueryResult>;
}

/** What the adapters read of a `pg` query result: the same as a settlement transaction's. */
export type PostgresQueryResult = SettlementQueryResult;

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}(\.[a-z_][a-z0-9_]{0,62})?$/;

/** Refuses anything but a `pg` pool or client, naming `option`. */
export function checkQueryable(option: string, value: unknown): PostgresQueryable {
  if (
    typeof value !== 'object' ||
    value === null ||
    typeof (value as PostgresQueryable).query !== 'function'
  ) {
    throw new WalletConfigError(option, 'must be a pg Pool or client (an object with a query method)');
  }
  return value as PostgresQueryable;
}

/** Refuses a table name that is not a plain, optionally schema-qualified, lower-case identifier; quotes it. */
export function checkTable(option: string, value: unknown): string {
  if (typeof value !== 'string' || !IDENTIFIER.test(value)) {
    throw new WalletConfigError(option, 'must be a lower-case table name such as "payments.wallet_intents"');
  }
  return value
    .split('.')
    .map((part) => `"${part}"`)
    .join('.');
}
