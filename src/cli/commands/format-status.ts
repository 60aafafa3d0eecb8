import type { TransactionResult } from '../../index.js';
import { money } from '../format-money.js';
import { type Paint, plain, type Style } from '../style.js';

const STATUS_STYLES: Readonly<Record<string, Style>> = {
  completed: 'green',
  failed: 'red',
  pending: 'yellow',
};

/**
 * One line for a person: `txn_000001  completed  KES 8,000.00  reference order-1001`, with the
 * failure reason appended for a failed transaction. The amount is formatted as the demo shows
 * it, from the wire's digits, so no rounding can change what the service said.
 */
export function formatStatus(result: TransactionResult, paint: Paint = plain): string {
  const status = result.transaction_status;
  const style = STATUS_STYLES[status];
  const parts = [
    result.transaction_id,
    style === undefined ? status : paint(style, status),
    money(result.amount, result.currency),
  ];
  if (result.reference_id !== undefined) parts.push(`reference ${result.reference_id}`);
  if (result.failure_reason) parts.push(`reason: ${result.failure_reason}`);
  return parts.join('  ');
}
