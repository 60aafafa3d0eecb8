import { expect, vi } from 'vitest';
import type { PaymentJournal } from '../../src/index.js';

/**
 * Waits until the successful outcomes of `referenceIds` are in `journal`, each with its transaction
 * id: a success's outcome is written a few milliseconds after its caller has the answer, together
 * with the others answered meanwhile (docs/certainty.md, "What is written behind").
 */
export async function outcomesWritten(journal: PaymentJournal, ...referenceIds: string[]): Promise<void> {
  await vi.waitFor(async () => {
    for (const referenceId of referenceIds)
      expect((await journal.get(referenceId))?.transactionId).toBeDefined();
  });
}
