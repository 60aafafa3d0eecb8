import { tracingChannel } from '../diagnostics/channel.js';
import type { WalletSettlementTrace } from '../diagnostics/settlement-trace.js';
import {
  FINAL_STATUSES,
  type PaymentIntent,
  type PaymentJournal,
  type SettledBy,
  type SettlementTransaction,
} from '../journal/types.js';
import type { WalletLogger } from '../logger.js';
import { traced } from '../transport/tracing.js';

/** A payment's final status, as `onSettled` receives it. */
export type SettledStatus = 'completed' | 'failed';

/** What `onSettled` receives beside the payment. */
export interface SettledContext {
  /**
   * The transaction the settlement commits in, on a journal that has one (the PostgreSQL journal on
   * a `pg` Pool); `undefined` on the others. Writes through it commit with `settledAt`, exactly once.
   * It begins with the first statement: a callback that writes nothing through it has its settlement
   * marked together with others made at the same time.
   */
  readonly transaction: SettlementTransaction | undefined;
}

/**
 * Called once a payment reaches its final status, by exactly one caller across every instance
 * sharing the journal, whichever path learns it first. At least once: a callback that throws, or
 * whose process dies, runs again after its lease (through the sweeper), so key your fulfilment by
 * `intent.referenceId`. On the PostgreSQL journal, what it writes through `context.transaction`
 * commits together with the settlement: exactly once.
 */
export type OnSettled = (
  intent: PaymentIntent,
  status: SettledStatus,
  context: SettledContext,
) => void | Promise<void>;

/**
 * Called once a payment is refused (the service refused it, or it was never sent and is over), by
 * exactly one caller across every instance sharing the journal, as `onSettled` is for a final status:
 * at least once, keyed by `intent.referenceId` (`intent.reason` holds the refusal's code), and exactly
 * once for what it writes through `context.transaction` on the PostgreSQL journal. No money moved:
 * release the order, or ask the customer to pay again under a new `reference_id`.
 */
export type OnRefused = (intent: PaymentIntent, context: SettledContext) => void | Promise<void>;

/** What settling needs: the journal, the callbacks, their lease, and where failures are reported. */
export interface Settlement {
  readonly journal: PaymentJournal;
  readonly onSettled: OnSettled | undefined;
  readonly onRefused?: OnRefused | undefined;
  readonly leaseMs: number;
  readonly logger: WalletLogger | undefined;
}

/** Traces each settlement run (`WalletSettlementTrace`). */
const settlementChannel = tracingChannel('merchant-wallet:settlement');

/** Default lease of one `onSettled` run: after it, a callback that did not finish runs again. */
export const DEFAULT_SETTLE_LEASE_MS = 60_000;

/** An error as a log line reads it: its name and message, never its stack. */
export function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** Claims the settlement of `referenceId`; a journal failure is logged and answers `undefined`. */
async function claim(settlement: Settlement, referenceId: string, lease: string) {
  const { journal, leaseMs, logger } = settlement;
  try {
    return await journal.claimSettlement?.(referenceId, lease, leaseMs);
  } catch (error) {
    logger?.warn?.('The payment journal could not claim a settlement; the sweeper settles it later', {
      referenceId,
      error: describeError(error),
    });
    return undefined;
  }
}

/**
 * Settles the intent of `referenceId` if its status is final (or it was refused) and nobody settled
 * it or holds it: claims it (one winner across instances), runs `onSettled` (or `onRefused`), then
 * records `settledAt`. A callback
 * that throws is logged and left to its lease; the sweeper runs it again after. Never throws.
 * Answers whether this call settled it.
 */
export async function settle(
  settlement: Settlement,
  referenceId: string,
  path: SettledBy = 'status_read',
): Promise<boolean> {
  const { journal } = settlement;
  if (journal.claimSettlement === undefined || journal.completeSettlement === undefined) return false;
  const lease = crypto.randomUUID();
  const intent = await claim(settlement, referenceId, lease);
  if (intent === undefined) return false;
  const { endpoint, transactionStatus: status, createdAt: recordedAt } = intent;
  const trace: WalletSettlementTrace = { referenceId, path, endpoint, status, recordedAt };
  return traced(settlementChannel, trace, () => settleClaimed(settlement, intent, lease));
}

/** Runs `onSettled` (or `onRefused`) for a claimed intent and marks it settled; answers whether it did. Never throws. */
async function settleClaimed(settlement: Settlement, intent: PaymentIntent, lease: string): Promise<boolean> {
  const { journal, onSettled, onRefused, leaseMs, logger } = settlement;
  const { referenceId, transactionStatus: status } = intent;
  const run = async (transaction: SettlementTransaction | undefined) => {
    if (intent.state === 'refused') await onRefused?.(intent, { transaction });
    else if (onSettled !== undefined && status !== undefined && FINAL_STATUSES.has(status)) {
      await onSettled(intent, status as SettledStatus, { transaction });
    }
  };
  try {
    if (journal.settleInTransaction !== undefined) {
      return await journal.settleInTransaction(referenceId, lease, run);
    }
    await run(undefined);
    return (await journal.completeSettlement?.(referenceId, lease)) === true;
  } catch (error) {
    const hook = intent.state === 'refused' ? 'onRefused' : 'onSettled';
    logger?.error?.(`${hook} did not complete; the sweeper runs it again after its lease`, {
      referenceId,
      leaseMs,
      error: describeError(error),
    });
    return false;
  }
}
