import type { ReconcileResult } from '../../index.js';

/**
 * One JSON line of `reconcile` output. Field names follow the wire's snake_case; an error is
 * its `toJSON()`, which carries the public fields only, never a credential.
 */
export function reconcileLine(result: ReconcileResult): string {
  return JSON.stringify(
    result.error === undefined
      ? { transaction_id: result.transactionId, status: result.status }
      : { transaction_id: result.transactionId, error: result.error.toJSON() },
  );
}
