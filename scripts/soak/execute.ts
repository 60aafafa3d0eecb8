import type { WalletClient } from '../../src/index.js';
import type { Sandbox } from '../../src/testing/index.js';
import { type PlannedOperation, SOAK_TOKENS } from './plan.js';

/** How one operation ended. */
export type OperationOutcome =
  | {
      ok: true;
      transactionId: string;
      referenceId: string | undefined;
      amount: number;
      currency: string;
    }
  | { ok: false; error: unknown };

/** One planned operation and how it ended. */
export interface OperationRecord {
  readonly operation: PlannedOperation;
  readonly outcome: OperationOutcome;
}

function perform(client: WalletClient, operation: PlannedOperation) {
  if (operation.kind === 'deposit') {
    return client.deposit(
      {
        reference_id: operation.referenceId,
        amount: operation.amount,
        currency: operation.currency,
        ...(operation.provider ? { payment_provider: operation.provider } : {}),
      },
      { userToken: SOAK_TOKENS[operation.user] },
    );
  }
  return client.withdraw({
    reference_id: operation.referenceId,
    email: operation.email,
    amount: operation.amount,
    currency: operation.currency,
  });
}

/**
 * Runs the plan through `client` with at most `concurrency` calls in flight. Each
 * operation arms its fault just before it starts; with calls in flight the fault may
 * meet a neighbour's request instead, which is the point: faults land anywhere.
 */
export async function executePlan(
  client: WalletClient,
  sandbox: Sandbox,
  plan: readonly PlannedOperation[],
  concurrency: number,
): Promise<OperationRecord[]> {
  const records: OperationRecord[] = new Array(plan.length);
  let next = 0;
  const worker = async () => {
    while (next < plan.length) {
      const operation = plan[next++] as PlannedOperation;
      if (operation.fault) sandbox.faults.inject({ ...operation.fault, times: 1 });
      const outcome = await perform(client, operation).then(
        (result): OperationOutcome => ({
          ok: true,
          transactionId: result.transaction_id,
          referenceId: result.reference_id,
          amount: result.amount,
          currency: result.currency,
        }),
        (error: unknown): OperationOutcome => ({ ok: false, error }),
      );
      records[operation.index] = { operation, outcome };
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  return records;
}
