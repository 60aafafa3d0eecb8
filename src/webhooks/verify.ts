import type { WalletIssue } from '../errors.js';
import { amountsMatch, sameCurrency } from '../limits.js';
import type { TransactionResult } from '../schemas/responses.js';
import type { TransactionEvent } from './parse.js';

export type { TransactionReader } from '../transaction-reader.js';

/** The webhook fields that are compared with the status endpoint's answer. */
export type VerifiedField = 'transaction_id' | 'transaction_status' | 'reference_id' | 'amount' | 'currency';

/** Every {@link VerifiedField}, in the order disagreements are reported. */
const VERIFIED_FIELDS: readonly VerifiedField[] = [
  'transaction_id',
  'transaction_status',
  'reference_id',
  'amount',
  'currency',
];

/**
 * A transaction event's body as it was posted. Webhooks are unsigned: anyone who knows the URL can
 * post one, so nothing in it is authenticated. With `verifyWith` it reaches `onTransaction` only
 * when each of its {@link VerifiedField}s it carries equals the status read back; its other fields
 * (`date_completed`, `failure_reason`, fields the SDK does not know) are never checked.
 */
export type UnverifiedTransactionEvent = TransactionEvent;

/** What `onTransaction` gets with `verifyWith`: the transaction as read back, which the webhook agreed with. */
export interface VerifiedTransaction {
  /** Always `true`: the transaction was read back from the status endpoint, and the event agreed with it. */
  readonly verified: true;
  /** The transaction as the status endpoint reports it, read for this delivery: act on this. */
  readonly status: TransactionResult;
}

/** Marks a transaction event that was not read back (no `verifyWith`): the body is unauthenticated. */
export interface UnverifiedTransaction {
  /** Always `false`: nothing was read back, so only the unauthenticated body is known. */
  readonly verified: false;
}

/**
 * One issue per field where a webhook differs from the status endpoint's answer for the same
 * transaction; empty when it agrees. Fields the webhook does not carry are not compared.
 */
export function disagreementsWith(event: TransactionEvent, status: TransactionResult): WalletIssue[] {
  return VERIFIED_FIELDS.filter((field) => {
    const claimed = event[field];
    const actual = status[field] as string;
    if (claimed === undefined) return false;
    // The status endpoint sends the amount as a string; a webhook may send a number.
    if (field === 'amount') return !amountsMatch(claimed, actual);
    return field === 'currency' ? !sameCurrency(claimed as string, actual) : claimed !== actual;
  }).map((path) => ({ path, message: 'differs from the status endpoint' }));
}
