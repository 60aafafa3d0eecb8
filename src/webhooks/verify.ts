import type { TransactionResult } from '../schemas/responses.js';
import type { TransactionEvent } from './parse.js';

export type { TransactionReader } from '../transaction-reader.js';

/** The webhook fields that are compared with the status endpoint's answer. */
export type VerifiedField = 'transaction_id' | 'transaction_status' | 'reference_id' | 'amount' | 'currency';

/** How a transaction event was confirmed, given to `onTransaction` with `verifyWith`. */
export interface VerifiedTransaction {
  /** Always `true`: the transaction was read back from the status endpoint. */
  readonly verified: true;
  /** The transaction as the status endpoint reports it: trust this, not the webhook. */
  readonly status: TransactionResult;
  /** Whether every field the webhook carried among {@link VerifiedField} matched `status`. */
  readonly webhookAgreed: boolean;
  /** The fields where the webhook differed from `status`; empty when it agreed. */
  readonly disagreements: readonly VerifiedField[];
}

/** Marks a transaction event that was not read back (no `verifyWith`): the body is unauthenticated. */
export interface UnverifiedTransaction {
  /** Always `false`: nothing was read back, so only the unauthenticated body is known. */
  readonly verified: false;
}

function sameAmount(claimed: number | string, actual: string): boolean {
  // The status endpoint sends the amount as a string, a deposit webhook may send a number.
  return String(claimed).trim() !== '' && Number(claimed) === Number(actual);
}

/** Compares a webhook with the status endpoint's answer for the same transaction. */
export function compareWithStatus(event: TransactionEvent, status: TransactionResult): VerifiedTransaction {
  const disagreements: VerifiedField[] = [];
  if (event.transaction_id !== status.transaction_id) disagreements.push('transaction_id');
  if (event.transaction_status !== status.transaction_status) disagreements.push('transaction_status');
  if (event.reference_id !== undefined && event.reference_id !== status.reference_id) {
    disagreements.push('reference_id');
  }
  if (event.amount !== undefined && !sameAmount(event.amount, status.amount)) disagreements.push('amount');
  if (event.currency !== undefined && event.currency.toUpperCase() !== status.currency.toUpperCase()) {
    disagreements.push('currency');
  }
  return { verified: true, status, webhookAgreed: disagreements.length === 0, disagreements };
}
