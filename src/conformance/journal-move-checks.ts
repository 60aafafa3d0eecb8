import { canMove } from '../journal/merge.js';
import {
  FINAL_STATES,
  PAYMENT_INTENT_STATES,
  type PaymentIntentState,
  type PaymentIntentUpdate,
  type PaymentJournal,
} from '../journal/types.js';
import { expectThat } from './check.js';
import type { JournalCheck } from './journal-fixtures.js';

/** The one update that brings a fresh `sending` intent into each state, with a transaction id to find it by. */
const INTO: Record<PaymentIntentState, (transactionId: string) => PaymentIntentUpdate> = {
  sending: (transactionId) => ({ transactionId }),
  unknown: (transactionId) => ({ state: 'unknown', transactionId }),
  accepted: (transactionId) => ({ state: 'accepted', transactionId, transactionStatus: 'pending' }),
  completed: (transactionId) => ({ state: 'completed', transactionId, transactionStatus: 'completed' }),
  failed: (transactionId) => ({ state: 'failed', transactionId, transactionStatus: 'failed' }),
  refused: (transactionId) => ({ state: 'refused', transactionId, reason: 'insufficient_balance' }),
  closed: (transactionId) => ({ state: 'closed', transactionId, reason: 'by hand' }),
};

/** The update asking for state `to`: a final state comes with its own status, as `update` demands. */
const toward = (to: PaymentIntentState): PaymentIntentUpdate =>
  FINAL_STATES.has(to) ? { state: to, transactionStatus: to } : { state: to };

/** The transaction status `into(from)` leaves. */
const statusOf = (from: PaymentIntentState): string | undefined => INTO[from]('tx').transactionStatus;

type Path = 'update' | 'updateByTransactionId';

/**
 * Moves a fresh intent into `from`, asks for `to` along `path`, and answers what went wrong: an
 * empty list when the journal's state is `to` exactly when `canMove(from, to)`, and a final status
 * stayed as it was.
 */
async function tryMove(
  journal: PaymentJournal,
  from: PaymentIntentState,
  to: PaymentIntentState,
  path: Path,
): Promise<string[]> {
  const referenceId = `move-${path}-${from}-${to}`;
  const transactionId = `tx-${referenceId}`;
  await journal.record({ referenceId, endpoint: 'withdraw', body: { reference_id: referenceId } });
  const setUp = await journal.update(referenceId, INTO[from](transactionId));
  if (setUp?.state !== from) return [`${referenceId}: setting up state ${from} gave ${setUp?.state}`];
  const after =
    path === 'update'
      ? await journal.update(referenceId, toward(to))
      : await journal.updateByTransactionId(transactionId, toward(to));
  const read = await journal.get(referenceId);
  const state = canMove(from, to) ? to : from;
  const finalBefore = FINAL_STATES.has(from);
  const status = finalBefore ? statusOf(from) : FINAL_STATES.has(to) && state === to ? to : statusOf(from);
  const problems: string[] = [];
  for (const [what, intent] of [
    ['answered', after],
    ['read back', read],
  ] as const) {
    if (intent?.state !== state)
      problems.push(`${from} → ${to} by ${path}: ${what} state ${intent?.state}, canMove says ${state}`);
    if (intent?.transactionStatus !== status)
      problems.push(
        `${from} → ${to} by ${path}: ${what} status ${intent?.transactionStatus}, expected ${status}`,
      );
  }
  return problems;
}

/** Every ordered pair of states, each along `update` and `updateByTransactionId`. */
export const moveChecks: Record<string, JournalCheck> = {
  'every pair of states moves through update and updateByTransactionId exactly as canMove says, and a final status sticks':
    async (journal) => {
      const moves = PAYMENT_INTENT_STATES.flatMap((from) =>
        PAYMENT_INTENT_STATES.flatMap((to) =>
          (['update', 'updateByTransactionId'] as const).map((path) => tryMove(journal, from, to, path)),
        ),
      );
      const problems = (await Promise.all(moves)).flat();
      expectThat(
        problems.length === 0,
        `${problems.length} state moves disagree with canMove:\n${problems.slice(0, 12).join('\n')}`,
      );
    },
};
