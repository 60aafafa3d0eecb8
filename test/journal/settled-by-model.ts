import fc from 'fast-check';
import { type PaymentIntentUpdate, type PaymentJournal, SETTLED_BY } from '../../src/index.js';

const FINAL = new Set(['completed', 'failed']);

/** An update a client path could make: a state, its status when final, and the path it comes from. */
export const updateArbitrary: fc.Arbitrary<PaymentIntentUpdate> = fc
  .record({
    state: fc.constantFrom('accepted', 'completed', 'failed', 'unknown', 'refused' as const),
    settledBy: fc.option(fc.constantFrom(...SETTLED_BY), { nil: undefined }),
  })
  .map(({ state, settledBy }) => ({
    state,
    settledBy,
    ...(FINAL.has(state) ? { transactionStatus: state } : {}),
  }));

let references = 0;

/**
 * Records an intent, applies `first` through `run` (which may interleave them), then `later`: the path
 * kept is that of an update that named the final state reached, or none before one; later updates
 * never change it. Answers a description of the first broken rule, or `undefined`.
 */
export async function checkSettledBy(
  journal: PaymentJournal,
  first: readonly PaymentIntentUpdate[],
  later: readonly PaymentIntentUpdate[],
  run: (writes: (() => Promise<unknown>)[]) => Promise<void>,
): Promise<string | undefined> {
  const referenceId = `settled-by-${++references}-${Date.now()}`;
  await journal.record({ referenceId, endpoint: 'deposit', body: {} });
  await run(first.map((update) => () => journal.update(referenceId, update)));
  const after = await journal.get(referenceId);
  if (after === undefined) return 'the intent is gone';
  if (!FINAL.has(after.state)) {
    return after.settledBy === undefined
      ? undefined
      : `settledBy ${after.settledBy} on a ${after.state} intent`;
  }
  const candidates = first.filter((update) => update.state === after.state).map((update) => update.settledBy);
  if (!candidates.includes(after.settledBy)) {
    return `settledBy ${after.settledBy} named by no update to ${after.state}`;
  }
  await Promise.all(later.map((update) => journal.update(referenceId, update)));
  const end = await journal.get(referenceId);
  return end?.settledBy === after.settledBy
    ? undefined
    : `settledBy changed from ${after.settledBy} to ${end?.settledBy}`;
}
