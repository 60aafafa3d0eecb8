import { describe, expect, test } from 'vitest';
import { journalConformanceChecks, sweepConformanceChecks } from '../../src/conformance/index.js';
import { createMemoryJournal, type PaymentJournal } from '../../src/index.js';

describe('the memory journal passes the settlement and sweeper checks', () => {
  for (const check of sweepConformanceChecks(() => createMemoryJournal())) test(check.name, check.run);
});

describe('the due grid and the state pairs catch an adapter that departs from the rules', () => {
  const gridCheck = (factory: () => PaymentJournal) =>
    sweepConformanceChecks(factory).find((check) => check.name.startsWith('claimDue chooses exactly'));

  test('a journal that settles payments when the sweeper was not asked to fails the due grid', async () => {
    const settlesAlways = (): PaymentJournal => {
      const journal = createMemoryJournal();
      return { ...journal, claimDue: (query) => journal.claimDue!({ ...query, settle: true }) };
    };
    await expect(gridCheck(settlesAlways)!.run()).rejects.toThrow(/completed, free.*claimed but not due/);
  });

  test("a journal that claims another merchant's intents fails the due grid", async () => {
    const anyMerchant = (): PaymentJournal => {
      const journal = createMemoryJournal();
      return { ...journal, claimDue: (query) => journal.claimDue!({ ...query, merchant: undefined }) };
    };
    await expect(gridCheck(anyMerchant)!.run()).rejects.toThrow(/merchant mw1:them: claimed but not due/);
  });

  test('a journal that never moves an intent into failed fails the state-pair check', async () => {
    const neverFails = (): PaymentJournal => {
      const journal = createMemoryJournal();
      return {
        ...journal,
        update: (reference, change) =>
          change.state === 'failed' ? journal.get(reference) : journal.update(reference, change),
      };
    };
    const pairs = journalConformanceChecks(neverFails).find((check) => check.name.startsWith('every pair'));
    await expect(pairs!.run()).rejects.toThrow(
      /sending → failed by update: answered state sending, canMove says failed/,
    );
  });
});
