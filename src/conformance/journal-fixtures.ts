import type { PaymentIntent, PaymentJournal } from '../journal/types.js';
import { expectSame, expectThat } from './check.js';

/** One conformance check of a journal: resolves when it behaves, rejects with what it got wrong. */
export type JournalCheck = (journal: PaymentJournal) => Promise<void>;

/** The body of the deposit most checks record. */
export const body = {
  reference_id: 'ref-1',
  amount: 250.5,
  currency: 'KES',
  payment_provider: { name: 'mpesa', phone: '+254700000000' },
};
/** The deposit intent most checks record. */
export const intent = { referenceId: 'ref-1', endpoint: 'deposit', body } as const;

/** Fails the check unless `actual` exists and has every field of `expected`. */
export function sameIntent(
  actual: PaymentIntent | undefined,
  expected: Partial<PaymentIntent>,
  what: string,
): void {
  expectThat(actual !== undefined, `${what}: intent missing`);
  for (const [key, value] of Object.entries(expected)) {
    expectSame(actual[key as keyof PaymentIntent], value, `${what}: ${key}`);
  }
}
