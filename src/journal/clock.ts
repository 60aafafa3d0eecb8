/** One clock for a journal's times: the store's own, read once per pass. */
import type { PaymentJournal } from './types.js';

/**
 * The journal store's clock in milliseconds since the epoch ({@link PaymentJournal.now}), or this
 * process's clock for a journal that has none (the memory journal lives in this process).
 */
export async function storeNow(journal: PaymentJournal): Promise<number> {
  return journal.now === undefined ? Date.now() : await journal.now();
}

/** Whether a lease ending at `leaseUntil` (ISO 8601, store's clock) still holds at `now` (store's clock). */
export function leaseHolds(leaseUntil: string | undefined, now: number): boolean {
  return leaseUntil !== undefined && Date.parse(leaseUntil) > now;
}

/**
 * The ISO 8601 text of a millisecond since the epoch, remembering the last one asked for: the writes
 * of one millisecond share one string, instead of a `Date` and its formatting each. Keep one per
 * kind of time (a write's time, a lease's end), so two that alternate do not undo each other.
 */
export function isoClock(): (ms: number) => string {
  let lastMs = Number.NaN;
  let lastIso = '';
  return (ms) => {
    if (ms !== lastMs) {
      lastMs = ms;
      lastIso = new Date(ms).toISOString();
    }
    return lastIso;
  };
}
