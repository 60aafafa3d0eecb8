/**
 * Conformance of `releaseDueWith`: the status the sweeper read and the release of its lease, in one
 * write, mean exactly what `update` followed by `releaseDue` mean. A journal without it is checked
 * for that fallback, which the sweeper then uses.
 */
import type { PaymentJournal } from '../journal/types.js';
import { type ReleasingJournal, releaseWithStatus } from '../settlement/release-with-status.js';
import { expectSame, expectThat } from './check.js';
import type { JournalCheck } from './journal-fixtures.js';

const LONG_MS = 60_000;

/** What the sweeper calls: the journal's `releaseDueWith`, else `update`, then `releaseDue`. */
function releaseWith(journal: PaymentJournal) {
  expectThat(
    journal.claimDue !== undefined && journal.releaseDue !== undefined,
    'the journal has claimDue and releaseDue',
  );
  return releaseWithStatus(journal as ReleasingJournal);
}

/** Records pending withdrawals `refs`, then claims them all under `lease`. */
async function claimPending(journal: PaymentJournal, refs: readonly string[], lease: string) {
  for (const ref of refs) {
    await journal.record({ referenceId: ref, endpoint: 'withdraw', body: { reference_id: ref } });
    await journal.update(ref, {
      state: 'accepted',
      transactionId: `tx-${ref}`,
      transactionStatus: 'pending',
    });
  }
  const claimed = await journal.claimDue?.({
    lease,
    leaseMs: LONG_MS,
    limit: 100,
    merchant: undefined,
    sendingGraceMs: 1,
    firstCheckMs: 0,
    stuckAfterMs: LONG_MS,
    settle: true,
  });
  expectSame(claimed?.map((intent) => intent.referenceId).sort(), [...refs].sort(), 'the claimed intents');
}

export const releaseWithChecks: Record<string, JournalCheck> = {
  'a release with the status read writes the status, frees the lease and schedules the next check': async (
    journal,
  ) => {
    const release = releaseWith(journal);
    await claimPending(journal, ['pending', 'completed'], 'sweep');
    const next = new Date(Date.now() + LONG_MS).toISOString();
    const read = (ref: string, status: 'pending' | 'completed') =>
      ({
        state: status === 'pending' ? 'accepted' : status,
        transactionId: `tx-${ref}`,
        transactionStatus: status,
        settledBy: 'sweeper',
      }) as const;
    await Promise.all([
      release('pending', 'sweep', next, read('pending', 'pending')),
      release('completed', 'sweep', next, read('completed', 'completed')),
    ]);
    const [pending, completed] = await Promise.all([journal.get('pending'), journal.get('completed')]);
    expectSame(
      [pending?.state, pending?.transactionStatus, pending?.checks],
      ['accepted', 'pending', 1],
      'a pending read',
    );
    expectSame(Date.parse(pending?.nextCheckAt ?? ''), Date.parse(next), 'its next check');
    expectSame(
      [completed?.state, completed?.transactionStatus, completed?.settledBy, completed?.checks],
      ['completed', 'completed', 'sweeper', 1],
      'a final read, settled by the sweeper',
    );
    expectSame(
      await journal.claimSettlement?.('completed', 'settle', LONG_MS).then((intent) => intent?.referenceId),
      'completed',
      'the lease is free for its settlement',
    );
  },
  'a release under a lease that no longer holds the intent writes the status read and nothing else': async (
    journal,
  ) => {
    const release = releaseWith(journal);
    await claimPending(journal, ['late'], 'sweep');
    const update = {
      state: 'failed',
      transactionId: 'tx-late',
      transactionStatus: 'failed',
      settledBy: 'sweeper',
    } as const;
    await release('late', 'another', new Date(Date.now() + LONG_MS).toISOString(), update);
    const late = await journal.get('late');
    expectSame(
      [late?.state, late?.transactionStatus, late?.checks ?? 0],
      ['failed', 'failed', 0],
      'the status, no check counted',
    );
    expectSame(late?.nextCheckAt, undefined, 'no next check');
    expectSame(
      await journal.claimSettlement?.('late', 'settle', LONG_MS),
      undefined,
      'the sweeper that holds it still holds it',
    );
  },
};
