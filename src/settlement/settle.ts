import { FINAL_STATUSES, type PaymentIntent, type PaymentJournal } from '../journal/types.js';
import type { WalletLogger } from '../logger.js';

/** A payment's final status, as `onSettled` receives it. */
export type SettledStatus = 'completed' | 'failed';

/**
 * Called once a payment reaches its final status, by exactly one caller across every instance
 * sharing the journal, whichever path learns it first. At least once: a callback that throws, or
 * whose process dies, runs again after its lease (through the sweeper), so key your fulfilment by
 * `intent.referenceId`.
 */
export type OnSettled = (intent: PaymentIntent, status: SettledStatus) => void | Promise<void>;

/** What settling needs: the journal, the callback, its lease, and where failures are reported. */
export interface Settlement {
  readonly journal: PaymentJournal;
  readonly onSettled: OnSettled | undefined;
  readonly leaseMs: number;
  readonly logger: WalletLogger | undefined;
}

/** Default lease of one `onSettled` run: after it, a callback that did not finish runs again. */
export const DEFAULT_SETTLE_LEASE_MS = 60_000;

/**
 * Settles the intent of `referenceId` if its status is final and nobody settled it or holds it:
 * claims it (one winner across instances), runs `onSettled`, then records `settledAt`. A callback
 * that throws is logged and left to its lease; the sweeper runs it again after. Never throws.
 * Answers whether this call settled it.
 */
export async function settle(settlement: Settlement, referenceId: string): Promise<boolean> {
  const { journal, onSettled, leaseMs, logger } = settlement;
  if (journal.claimSettlement === undefined || journal.completeSettlement === undefined) return false;
  const lease = crypto.randomUUID();
  let intent: PaymentIntent | undefined;
  try {
    intent = await journal.claimSettlement(referenceId, lease, leaseMs);
  } catch (error) {
    logger?.warn?.('The payment journal could not claim a settlement; the sweeper settles it later', {
      referenceId,
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    });
    return false;
  }
  if (intent === undefined) return false;
  try {
    const status = intent.transactionStatus;
    if (onSettled !== undefined && status !== undefined && FINAL_STATUSES.has(status)) {
      await onSettled(intent, status as SettledStatus);
    }
    return await journal.completeSettlement(referenceId, lease);
  } catch (error) {
    logger?.error?.('onSettled did not complete; the sweeper runs it again after its lease', {
      referenceId,
      leaseMs,
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    });
    return false;
  }
}
