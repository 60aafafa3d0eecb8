import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createMemoryJournal } from '../../src/index.js';
import { checkSettledBy, updateArbitrary } from './settled-by-model.js';

describe('settledBy names the path that moved a payment into its final state', () => {
  test('concurrent updates from every path, in any interleaving: kept from the settling update, never changed', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.array(updateArbitrary, { minLength: 1, maxLength: 8 }),
        fc.array(updateArbitrary, { maxLength: 4 }),
        async (scheduler, first, later) => {
          const journal = createMemoryJournal();
          const problem = await checkSettledBy(journal, first, later, async (writes) => {
            const all = writes.map((write) => scheduler.schedule(Promise.resolve()).then(write));
            await scheduler.waitAll();
            await Promise.all(all);
          });
          expect(problem).toBeUndefined();
        },
      ),
      { numRuns: 200 },
    );
  });

  test('an update naming an unknown path is refused naming the field', async () => {
    const journal = createMemoryJournal();
    await journal.record({ referenceId: 'r', endpoint: 'deposit', body: {} });
    await expect(journal.update('r', { settledBy: 'carrier_pigeon' as never })).rejects.toThrow(
      /update\.settledBy.*must be one of answer, status_read, webhook/,
    );
  });
});
