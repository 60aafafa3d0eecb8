import { isDue } from '../journal/due.js';
import type { DueQuery, PaymentIntent, PaymentIntentUpdate, PaymentJournal } from '../journal/types.js';
import { expectThat, pause } from './check.js';
import type { JournalCheck } from './journal-fixtures.js';

const LONG_MS = 60_000;
const HOUR_MS = 3_600_000;

/** What brings a fresh intent into each row of the grid: its updates, and whether it is settled or claimed. */
const SHAPES: Record<string, { updates: PaymentIntentUpdate[]; settlement?: 'settled' | 'claimed' }> = {
  sending: { updates: [] },
  unknown: { updates: [{ state: 'unknown' }] },
  'accepted without a transaction id': { updates: [{ state: 'accepted', reason: 'reference_already_used' }] },
  'accepted, status unread': { updates: [{ state: 'accepted', transactionId: 'tx' }] },
  pending: { updates: [{ state: 'accepted', transactionId: 'tx', transactionStatus: 'pending' }] },
  completed: { updates: [{ state: 'completed', transactionId: 'tx', transactionStatus: 'completed' }] },
  'completed, settled': {
    updates: [{ state: 'completed', transactionId: 'tx', transactionStatus: 'completed' }],
    settlement: 'settled',
  },
  'completed, settlement claimed': {
    updates: [{ state: 'completed', transactionId: 'tx', transactionStatus: 'completed' }],
    settlement: 'claimed',
  },
  failed: { updates: [{ state: 'failed', transactionId: 'tx', transactionStatus: 'failed' }] },
  'failed, settled': {
    updates: [{ state: 'failed', transactionId: 'tx', transactionStatus: 'failed' }],
    settlement: 'settled',
  },
  refused: { updates: [{ state: 'refused', reason: 'insufficient_balance' }] },
  'refused, settled': {
    updates: [{ state: 'refused', reason: 'insufficient_balance' }],
    settlement: 'settled',
  },
  closed: { updates: [{ state: 'closed', reason: 'by hand' }] },
};

/**
 * The lease and schedule of a row: free with no next check, a next check past or to come, held by
 * another sweeper, or held by the call that recorded it (a sending lease).
 */
const LEASES = [
  'free',
  'next check past',
  'next check to come',
  "another sweeper's",
  "its sender's",
] as const;
const MERCHANTS = ['mw1:me', 'mw1:them', undefined] as const;

interface Row {
  readonly referenceId: string;
  readonly shape: string;
  readonly lease: (typeof LEASES)[number];
  readonly merchant: string | undefined;
}

const ROWS: readonly Row[] = Object.keys(SHAPES).flatMap((shape, s) =>
  LEASES.flatMap((lease, l) =>
    MERCHANTS.map((merchant, m) => ({ referenceId: `grid-${s}-${l}-${m}`, shape, lease, merchant })),
  ),
);

const clockOf = async (journal: PaymentJournal) => (journal.now ? journal.now() : Date.now());

/** Records the row's intent and brings it into its shape (its sweeper lease and schedule come later). */
async function setUp(journal: PaymentJournal, row: Row): Promise<void> {
  const { referenceId, merchant } = row;
  const sender = row.lease === "its sender's" ? { recordedBy: 'call-1', sendingLeaseMs: LONG_MS } : {};
  await journal.record({
    referenceId,
    endpoint: 'withdraw',
    body: { reference_id: referenceId },
    merchant,
    ...sender,
  });
  const shape = SHAPES[row.shape] as (typeof SHAPES)[string];
  for (const update of shape.updates) {
    await journal.update(
      referenceId,
      update.transactionId ? { ...update, transactionId: `tx-${referenceId}` } : update,
    );
  }
  if (shape.settlement === undefined) return;
  await journal.claimSettlement?.(referenceId, 'settlement', LONG_MS);
  if (shape.settlement === 'settled') await journal.completeSettlement?.(referenceId, 'settlement');
}

/**
 * Every query of the grid: stuck age × merchant × settling × sending grace × first check. The short
 * stuck age comes first: a payment one sweeper finds stuck is still due to one with a longer age.
 */
function queries(): DueQuery[] {
  const all: DueQuery[] = [];
  for (const stuckAfterMs of [1, LONG_MS])
    for (const merchant of ['mw1:me', undefined])
      for (const settle of [true, false])
        for (const sendingGraceMs of [1, LONG_MS])
          for (const firstCheckMs of [1, LONG_MS]) {
            const lease = `grid-${all.length}`;
            all.push({
              lease,
              leaseMs: LONG_MS,
              limit: 1000,
              merchant,
              sendingGraceMs,
              firstCheckMs,
              stuckAfterMs,
              settle,
            });
          }
  return all;
}

/** The intents of the grid, as the journal reads them now. */
async function readAll(journal: PaymentJournal): Promise<PaymentIntent[]> {
  return (await journal.list({ limit: 1000 })).intents.filter((intent) =>
    intent.referenceId.startsWith('grid-'),
  );
}

const free = (intent: PaymentIntent, now: number) =>
  intent.leaseUntil === undefined || Date.parse(intent.leaseUntil) <= now;

/**
 * Sets up every row, then asks `claimDue` every query of the grid and compares its choice with the
 * rule of `isDue` over the rows as read, leases aside; after each query the claimed rows are released
 * to the schedule they had, so the next query sees the same grid.
 */
async function dueGrid(journal: PaymentJournal): Promise<void> {
  const { claimDue, releaseDue } = journal;
  expectThat(claimDue !== undefined && releaseDue !== undefined, 'the journal has claimDue and releaseDue');
  await Promise.all(ROWS.map((row) => setUp(journal, row)));
  await pause(10);
  const setUpQuery = {
    ...(queries()[0] as DueQuery),
    lease: 'setup',
    merchant: undefined,
    stuckAfterMs: LONG_MS,
  };
  const clock = await clockOf(journal);
  const byReference = new Map(ROWS.map((row) => [row.referenceId, row]));
  const claimedAtSetUp = await claimDue.call(journal, setUpQuery);
  await Promise.all(
    claimedAtSetUp.map(({ referenceId }) => {
      const lease = byReference.get(referenceId)?.lease;
      if (lease === "another sweeper's") return undefined;
      const next =
        lease === 'next check past'
          ? clock - HOUR_MS
          : lease === 'next check to come'
            ? clock + HOUR_MS
            : undefined;
      return releaseDue.call(
        journal,
        referenceId,
        'setup',
        next === undefined ? undefined : new Date(next).toISOString(),
      );
    }),
  );
  const problems: string[] = [];
  let claimedInAll = 0;
  for (const query of queries()) {
    await pause(10);
    const intents = await readAll(journal);
    const now = await clockOf(journal);
    const expected = intents.filter((intent) => free(intent, now) && isDue(intent, query, now));
    const claimed = await claimDue.call(journal, query);
    claimedInAll += claimed.length;
    const chosen = new Set(claimed.map((intent) => intent.referenceId));
    const wanted = new Set(expected.map((intent) => intent.referenceId));
    for (const intent of intents) {
      if (chosen.has(intent.referenceId) === wanted.has(intent.referenceId)) continue;
      const row = byReference.get(intent.referenceId) as Row;
      const { lease, leaseMs, limit, ...asked } = query;
      problems.push(
        `${row.shape}, ${row.lease}, merchant ${row.merchant}: ${wanted.has(intent.referenceId) ? 'due but not claimed' : 'claimed but not due'} by ${JSON.stringify(asked)}`,
      );
    }
    const schedule = new Map(intents.map((intent) => [intent.referenceId, intent.nextCheckAt]));
    await Promise.all(
      claimed.map(({ referenceId }) =>
        releaseDue.call(journal, referenceId, query.lease, schedule.get(referenceId)),
      ),
    );
  }
  expectThat(claimedInAll > 0, 'claimDue claimed nothing over the whole grid');
  expectThat(
    problems.length === 0,
    `${problems.length} choices of claimDue disagree with the due rule:\n${problems.slice(0, 12).join('\n')}`,
  );
}

/** The due rule, exhaustively: state × status × age × lease × merchant, on one journal. */
export const dueGridChecks: Record<string, JournalCheck> = {
  'claimDue chooses exactly what the due rule says over every state, status, age, lease and merchant':
    dueGrid,
};
