/**
 * Counts the journal writes of each payment, and how many of them the payment call waited for:
 * a write that finished before the call answered is on its critical path; one that finished after is
 * written behind.
 */
import type { PaymentJournal } from '../src/index.js';

const WRITES = new Set([
  'record',
  'update',
  'updateByTransactionId',
  'claimSettlement',
  'completeSettlement',
  'settleInTransaction',
  'claimDue',
  'releaseDue',
]);

/** Journal writes per payment, averaged over the payments of a round. */
export interface WritesPerPayment {
  /** Writes that finished before the payment call answered. */
  readonly awaited: number;
  /** Every write made for the payment, once the round has drained. */
  readonly total: number;
}

/** A journal that counts its writes by `reference_id`, and the tally. */
export interface CountingJournal {
  readonly journal: PaymentJournal;
  /** Call when a payment call answers: the writes finished so far are the ones it waited for. */
  answered(referenceId: string): void;
  /** The averages over every payment answered so far. */
  tally(): WritesPerPayment;
}

function referenceOf(method: string, args: readonly unknown[]): string | undefined {
  const first = args[0];
  if (method === 'record') return (first as { referenceId?: string } | undefined)?.referenceId;
  return typeof first === 'string' && method !== 'updateByTransactionId' ? first : undefined;
}

/** Wraps `journal` so each write it finishes is counted against its payment. */
export function countingJournal(journal: PaymentJournal): CountingJournal {
  const finished = new Map<string, number>();
  const awaited = new Map<string, number>();
  const proxy = new Proxy(journal, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof property !== 'string' || typeof value !== 'function') return value;
      if (!WRITES.has(property)) return value.bind(target);
      return async (...args: unknown[]) => {
        const result = await value.apply(target, args);
        const reference = referenceOf(property, args) ?? `#${property}`;
        finished.set(reference, (finished.get(reference) ?? 0) + 1);
        return result;
      };
    },
  });
  return {
    journal: proxy,
    answered(referenceId) {
      awaited.set(referenceId, finished.get(referenceId) ?? 0);
    },
    tally() {
      const payments = Math.max(awaited.size, 1);
      let waitedFor = 0;
      let total = 0;
      for (const [reference, count] of awaited) {
        waitedFor += count;
        total += finished.get(reference) ?? count;
      }
      return { awaited: waitedFor / payments, total: total / payments };
    },
  };
}
