import type { DueQuery, PaymentJournal } from '../journal/types.js';
import { type ConformanceCheck, expectSame, expectThat, pause } from './check.js';
import { dueGridChecks } from './due-grid-checks.js';
import type { JournalFactory } from './journal-checks.js';
import type { JournalCheck } from './journal-fixtures.js';
import { releaseWithChecks } from './release-with-checks.js';

const LONG_MS = 60_000;
const SHORT_MS = 1_000;

/** A query that finds everything due at once; override what a check is about. */
function query(lease: string, overrides: Partial<DueQuery> = {}): DueQuery {
  return {
    lease,
    leaseMs: LONG_MS,
    limit: 100,
    merchant: 'mw1:me',
    sendingGraceMs: 1,
    firstCheckMs: 1,
    stuckAfterMs: LONG_MS,
    settle: true,
    ...overrides,
  };
}

const withdrawal = (reference: string, merchant: string | undefined = 'mw1:me') =>
  ({ referenceId: reference, endpoint: 'withdraw', body: { reference_id: reference }, merchant }) as const;

function methods(journal: PaymentJournal) {
  const { claimSettlement, completeSettlement, claimDue, releaseDue } = journal;
  expectThat(
    claimSettlement !== undefined &&
      completeSettlement !== undefined &&
      claimDue !== undefined &&
      releaseDue !== undefined,
    'the journal has claimSettlement, completeSettlement, claimDue and releaseDue',
  );
  return {
    claimSettlement: claimSettlement.bind(journal),
    completeSettlement: completeSettlement.bind(journal),
    claimDue: claimDue.bind(journal),
    releaseDue: releaseDue.bind(journal),
  };
}

async function due(
  journal: PaymentJournal,
  lease: string,
  overrides: Partial<DueQuery> = {},
): Promise<string[]> {
  const claimed = await methods(journal).claimDue(query(lease, overrides));
  return claimed.map((intent) => intent.referenceId).sort();
}

const checks: Record<string, JournalCheck> = {
  'of many concurrent settlement claims of a final payment exactly one wins, once': async (journal) => {
    const { claimSettlement, completeSettlement } = methods(journal);
    await journal.record(withdrawal('ref-1'));
    expectSame(
      await claimSettlement('ref-1', 'early', LONG_MS),
      undefined,
      'a claim before the status is final',
    );
    await journal.update('ref-1', {
      state: 'completed',
      transactionId: 'tx-1',
      transactionStatus: 'completed',
    });
    const claims = await Promise.all(
      Array.from({ length: 20 }, (_, at) => claimSettlement('ref-1', `lease-${at}`, LONG_MS)),
    );
    const winners = claims.flatMap((claim, at) => (claim === undefined ? [] : [at]));
    expectSame(winners.length, 1, 'winning claims');
    expectThat(!(await completeSettlement('ref-1', 'not-the-lease')), 'completing under another lease');
    expectThat(await completeSettlement('ref-1', `lease-${winners[0]}`), 'completing under the lease');
    expectThat((await journal.get('ref-1'))?.settledAt !== undefined, 'settledAt once completed');
    expectSame(await claimSettlement('ref-1', 'again', LONG_MS), undefined, 'a claim once settled');
  },
  'a refusal is claimed for settlement once, and never again once settled': async (journal) => {
    const { claimSettlement, completeSettlement } = methods(journal);
    await journal.record(withdrawal('ref-1'));
    await journal.update('ref-1', { state: 'refused', reason: 'insufficient_balance' });
    const claims = await Promise.all(
      Array.from({ length: 20 }, (_, at) => claimSettlement('ref-1', `lease-${at}`, LONG_MS)),
    );
    const winners = claims.flatMap((claim, at) => (claim === undefined ? [] : [at]));
    expectSame(winners.length, 1, 'winners among concurrent claims of a refusal');
    expectSame(claims[winners[0] as number]?.reason, 'insufficient_balance', "the claimed intent's reason");
    expectThat(await completeSettlement('ref-1', `lease-${winners[0]}`), 'completing under the lease');
    expectSame(await claimSettlement('ref-1', 'again', LONG_MS), undefined, 'a claim once settled');
    await pause(10);
    expectSame(await due(journal, 'a'), [], 'a settled refusal is never due');
  },
  'a settlement claim that was never completed can be taken again after its lease': async (journal) => {
    const { claimSettlement } = methods(journal);
    await journal.record(withdrawal('ref-1'));
    await journal.update('ref-1', { state: 'failed', transactionId: 'tx-1', transactionStatus: 'failed' });
    expectThat((await claimSettlement('ref-1', 'first', SHORT_MS)) !== undefined, 'the first claim');
    expectSame(await claimSettlement('ref-1', 'second', LONG_MS), undefined, 'a claim under a live lease');
    await pause(SHORT_MS * 1.5);
    expectThat((await claimSettlement('ref-1', 'second', LONG_MS)) !== undefined, 'a claim after the lease');
  },
  'a final status is never taken back by a later one': async (journal) => {
    await journal.record(withdrawal('ref-1'));
    await journal.update('ref-1', {
      state: 'completed',
      transactionId: 'tx-1',
      transactionStatus: 'completed',
    });
    await journal.update('ref-1', { transactionStatus: 'pending' });
    await journal.updateByTransactionId('tx-1', { state: 'failed', transactionStatus: 'failed' });
    expectSame((await journal.get('ref-1'))?.transactionStatus, 'completed', 'status after late reads');
    expectSame((await journal.get('ref-1'))?.state, 'completed', 'state after late reads');
  },
  "claimDue finds what is due by state, and only this merchant's": async (journal) => {
    await journal.record(withdrawal('sending'));
    await journal.record(withdrawal('unknown'));
    await journal.update('unknown', { state: 'unknown' });
    await journal.record(withdrawal('pending'));
    await journal.update('pending', {
      state: 'accepted',
      transactionId: 'tx-p',
      transactionStatus: 'pending',
    });
    await journal.record(withdrawal('final'));
    await journal.update('final', {
      state: 'completed',
      transactionId: 'tx-f',
      transactionStatus: 'completed',
    });
    await journal.record(withdrawal('refused'));
    await journal.update('refused', { state: 'refused', reason: 'insufficient_balance' });
    await journal.record(withdrawal('theirs', 'mw1:them'));
    await journal.record(withdrawal('nobodys', undefined));
    expectSame(
      await due(journal, 'a', { sendingGraceMs: LONG_MS, firstCheckMs: LONG_MS, settle: false }),
      ['unknown'],
      'with a long grace and first check, not settling',
    );
    await pause(10);
    expectSame(
      await due(journal, 'b'),
      ['final', 'nobodys', 'pending', 'refused', 'sending'],
      'everything else due (a refusal too, to be settled for onRefused), none of the leased one or another merchant',
    );
  },
  'two sweepers never claim one intent, and a released intent is due at its next check': async (journal) => {
    const { releaseDue, claimDue } = methods(journal);
    for (let n = 0; n < 8; n++) {
      await journal.record(withdrawal(`ref-${n}`));
      await journal.update(`ref-${n}`, { state: 'unknown' });
    }
    const [one, two] = await Promise.all([
      claimDue(query('one', { limit: 5 })),
      claimDue(query('two', { limit: 5 })),
    ]);
    const claimed = [...one, ...two].map((intent) => intent.referenceId);
    expectSame(new Set(claimed).size, 8, 'distinct intents claimed by two sweepers');
    const first = one[0]?.referenceId as string;
    await releaseDue(first, 'two', undefined);
    expectSame(
      await due(journal, 'three'),
      [],
      'nothing due while the leases hold (a foreign release changes nothing)',
    );
    await releaseDue(first, 'one', new Date(Date.now() + SHORT_MS).toISOString());
    const released = await journal.get(first);
    expectSame(released?.checks, 1, 'checks after one release');
    expectThat(released?.nextCheckAt !== undefined, 'nextCheckAt after a release');
    expectSame(await due(journal, 'four'), [], 'before its next check');
    await pause(SHORT_MS * 1.5);
    expectSame(await due(journal, 'five'), [first], 'after its next check');
  },
  'an accepted payment whose transaction id is unknown is never due (its status cannot be read)': async (
    journal,
  ) => {
    await journal.record(withdrawal('no-id'));
    await journal.update('no-id', { state: 'accepted', reason: 'reference_already_used' });
    await pause(10);
    expectSame(await due(journal, 'a'), [], 'an accepted payment without a transaction id');
  },
  'a pending payment older than stuckAfterMs is not due': async (journal) => {
    await journal.record(withdrawal('old'));
    await journal.update('old', { state: 'accepted', transactionId: 'tx-o', transactionStatus: 'pending' });
    await pause(SHORT_MS);
    await journal.record(withdrawal('recent'));
    await journal.update('recent', {
      state: 'accepted',
      transactionId: 'tx-r',
      transactionStatus: 'pending',
    });
    await pause(10);
    expectSame(
      await due(journal, 'a', { stuckAfterMs: SHORT_MS / 2 }),
      ['recent'],
      'only the payment not yet stuck',
    );
  },
  'settleInTransaction, where a journal has it, settles only under the lease and not when the work throws':
    async (journal) => {
      const settleInTransaction = journal.settleInTransaction?.bind(journal);
      if (settleInTransaction === undefined) return;
      const { claimSettlement } = methods(journal);
      await journal.record(withdrawal('ref-1'));
      await journal.update('ref-1', {
        state: 'completed',
        transactionId: 'tx-1',
        transactionStatus: 'completed',
      });
      expectThat((await claimSettlement('ref-1', 'mine', LONG_MS)) !== undefined, 'the claim');
      const failing = settleInTransaction('ref-1', 'mine', async () => {
        throw new Error('the work failed');
      });
      expectThat(
        await failing.then(
          () => false,
          () => true,
        ),
        'work that throws rejects',
      );
      expectSame((await journal.get('ref-1'))?.settledAt, undefined, 'settledAt after work that threw');
      let ran = 0;
      const work = async () => {
        ran += 1;
      };
      expectSame(await settleInTransaction('ref-1', 'not-mine', work), false, 'under another lease');
      expectSame((await journal.get('ref-1'))?.settledAt, undefined, 'settledAt under another lease');
      expectSame(await settleInTransaction('ref-1', 'mine', work), true, 'under the lease');
      expectThat((await journal.get('ref-1'))?.settledAt !== undefined, 'settledAt once settled');
      expectThat(ran >= 1, 'the work ran');
      expectSame(await settleInTransaction('ref-1', 'mine', work), false, 'once settled');
    },
};

/**
 * The checks a journal passes to support settlement (`onSettled`) and the sweeper: one settlement
 * claim wins, final statuses stick, `claimDue` finds what is due under exclusive leases, and
 * `releaseDue` schedules the next check (with the status read, in `releaseDueWith`), and `claimDue` chooses what the due rule of `isDue` says
 * over a whole grid of states, statuses, ages, leases and merchants. Each check runs against a fresh journal.
 *
 * @example
 * for (const check of sweepConformanceChecks(() => createMemoryJournal())) test(check.name, check.run);
 */
export function sweepConformanceChecks(factory: JournalFactory): ConformanceCheck[] {
  return Object.entries({ ...checks, ...releaseWithChecks, ...dueGridChecks }).map(([name, check]) => ({
    name,
    run: async () => check(await factory()),
  }));
}
