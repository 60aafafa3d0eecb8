import type { TransactionResult } from '../../index.js';

/**
 * One line for a person: `txn_000001  completed  KES 150.00  reference order-1001`, with the
 * failure reason appended for a failed transaction. The amount stays the wire's string, so
 * no rounding can change what the service said.
 */
export function formatStatus(result: TransactionResult): string {
  const parts = [result.transaction_id, result.transaction_status, `${result.currency} ${result.amount}`];
  if (result.reference_id !== undefined) parts.push(`reference ${result.reference_id}`);
  if (result.failure_reason) parts.push(`reason: ${result.failure_reason}`);
  return parts.join('  ');
}
