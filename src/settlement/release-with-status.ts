import type { PaymentJournal, SweptUpdate } from '../journal/types.js';

/** A journal the sweeper can release intents of: one with `releaseDue`. */
export type ReleasingJournal = PaymentJournal & Required<Pick<PaymentJournal, 'releaseDue'>>;

/**
 * How the sweeper frees a claimed intent, writing with it the status it read (if any): in one write
 * where the journal has `releaseDueWith` (on PostgreSQL one grouped statement, and so one commit,
 * instead of two), else an update, then the release.
 */
export function releaseWithStatus(journal: ReleasingJournal) {
  const { releaseDue, releaseDueWith } = journal;
  return async (
    referenceId: string,
    lease: string,
    nextCheckAt: string,
    update: SweptUpdate | undefined,
  ): Promise<void> => {
    if (update === undefined) return releaseDue.call(journal, referenceId, lease, nextCheckAt);
    if (releaseDueWith !== undefined)
      return releaseDueWith.call(journal, referenceId, lease, nextCheckAt, update);
    await journal.update(referenceId, update);
    return releaseDue.call(journal, referenceId, lease, nextCheckAt);
  };
}
