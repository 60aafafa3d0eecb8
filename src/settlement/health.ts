import { WalletConfigError } from '../errors.js';
import {
  FINAL_STATUSES,
  PAYMENT_INTENT_STATES,
  type PaymentIntent,
  type PaymentIntentState,
  type PaymentJournal,
} from '../journal/types.js';
import { DEFAULT_SCHEDULE } from './schedule.js';

/** What `wallet.journalHealth()` reports. */
export interface JournalHealth {
  /** How many intents are in each state. */
  readonly counts: Readonly<Record<PaymentIntentState, number>>;
  /** Accepted payments whose transaction is still pending. */
  readonly pending: number;
  /** Payments with a final status whose `onSettled` has not completed yet. */
  readonly unsettled: number;
  /** How long the oldest pending payment has waited, in milliseconds (0 when none). */
  readonly oldestPendingMs: number;
  /**
   * Intents the sweeper no longer polls or cannot resolve: pending payments older than
   * `stuckAfterMs`, and `sending`/`unknown` intents unchanged that long. Each needs a person:
   * look it up in the wallet's portal, then settle it with `closeIntent` or a status read.
   */
  readonly stuck: readonly PaymentIntent[];
}

/**
 * Counts the journal's intents by state, the pending and unsettled payments, the oldest pending
 * one's age, and the stuck ones. It reads every open intent, so call it from a health endpoint or
 * a periodic job, not on every request.
 * @throws {WalletConfigError} when the client has no journal.
 */
export async function journalHealth(
  journal: PaymentJournal | undefined,
  stuckAfterMs = DEFAULT_SCHEDULE.stuckAfterMs,
): Promise<JournalHealth> {
  if (journal === undefined)
    throw new WalletConfigError('journal', 'journalHealth() needs the journal client option');
  const now = Date.now();
  const byState = await Promise.all(PAYMENT_INTENT_STATES.map((state) => journal.list(state)));
  const counts = Object.fromEntries(
    PAYMENT_INTENT_STATES.map((state, index) => [state, byState[index]?.length ?? 0]),
  ) as Record<PaymentIntentState, number>;
  const applied = byState[PAYMENT_INTENT_STATES.indexOf('applied')] ?? [];
  const pending = applied.filter((intent) => intent.transactionStatus === 'pending');
  const unsettled = applied.filter(
    (intent) =>
      intent.transactionStatus !== undefined &&
      FINAL_STATUSES.has(intent.transactionStatus) &&
      intent.settledAt === undefined,
  );
  const age = (intent: PaymentIntent, field: 'createdAt' | 'updatedAt') => now - Date.parse(intent[field]);
  const open = [...(byState[0] ?? []), ...(byState[1] ?? [])];
  const stuck = [
    ...open.filter((intent) => age(intent, 'updatedAt') >= stuckAfterMs),
    ...pending.filter((intent) => age(intent, 'createdAt') >= stuckAfterMs),
  ];
  return {
    counts,
    pending: pending.length,
    unsettled: unsettled.length,
    oldestPendingMs: Math.max(0, ...pending.map((intent) => age(intent, 'createdAt'))),
    stuck,
  };
}
