import { WalletConfigError } from '../errors.js';
import type { TransactionResult } from '../schemas/responses.js';
import type { TransactionReader } from '../transaction-reader.js';
import { retryLater } from './responses.js';

/**
 * The options that keep a flood of forged webhooks from turning the merchant's API key against
 * the merchant: webhooks are unsigned, and each transaction event makes `verifyWith` read back.
 */
export interface FloodOptions {
  /**
   * Most read-backs in flight at once, per handler. A delivery beyond it is answered 503 `busy` with
   * `Retry-After: 1`, unread: a genuine sender comes back. Deliveries of a transaction being read share
   * that read and do not count. Keep it well under the client's `maxSockets` (128 by default): the
   * rest of the client's connections stay for the merchant's own calls.
   * @default 16
   */
  maxVerifications?: number;
  /**
   * How long a `transaction_not_found` read-back is remembered, in milliseconds: deliveries of that
   * transaction meanwhile are answered 503 `verification_failed` with `Retry-After` (when it is
   * forgotten), unread. At most 10,000 transactions are remembered, the oldest forgotten first; `0`
   * remembers none.
   * @default 30000
   */
  notFoundMs?: number;
}

/** Each option: smallest and largest value. */
const LIMITS = { maxVerifications: [1, 65_535], notFoundMs: [0, 36e5] } as const;

/** At most this many not-found transactions are remembered (about 100 B each). */
export const NOT_FOUND_CAP = 10_000;

/** @throws {WalletConfigError} for a value that is not a whole number within its limits. */
export function checkFloodOptions(options: FloodOptions): void {
  for (const [name, [min, max]] of Object.entries(LIMITS)) {
    const value = options[name as keyof FloodOptions];
    if (value !== undefined && !(Number.isInteger(value) && value >= min && value <= max))
      throw new WalletConfigError(name, `must be a whole number from ${min} to ${max}`);
  }
}

/**
 * Runs `deliver` on the read-back of a transaction, or answers a delivery that gets none: 503 `busy`
 * when `maxVerifications` reads are in flight, 503 `verification_failed` while the transaction's
 * `transaction_not_found` is remembered.
 */
export type ReadGate = (
  transactionId: string,
  deliver: (read: Promise<TransactionResult>) => Promise<Response>,
) => Promise<Response> | Response;

/**
 * Single-flight per transaction id, a bound on reads in flight and a memory of `transaction_not_found`,
 * around `reader`. A delivery of a transaction whose first delivery is still running waits for it to
 * end, then runs on the same read: after the first one's callback, the dedupe store answers it
 * `duplicate` rather than `in_progress`. Every not-found is remembered for the same time, so the
 * memory's insertion order is its expiry order (as in the memory dedupe store).
 */
export function readGate(reader: TransactionReader, options: FloodOptions, now = () => Date.now()): ReadGate {
  const max = options.maxVerifications ?? 16;
  const forMs = options.notFoundMs ?? 30_000;
  const running = new Map<string, [read: Promise<TransactionResult>, done: Promise<unknown>]>();
  const notFound = new Map<string, number>();
  let reading = 0;
  return (id, deliver) => {
    const first = running.get(id);
    if (first) return first[1].then(() => deliver(first[0]));
    const left = (notFound.get(id) ?? 0) - now();
    if (left > 0) {
      return retryLater(503, 'verification_failed', { 'retry-after': String(Math.ceil(left / 1000)) });
    }
    if (reading >= max) return retryLater(503, 'busy', { 'retry-after': '1' });
    reading += 1;
    // `readFor` lets a journaling client record the payment as settled by webhook. A reader that
    // throws rather than rejecting fails this read alone.
    const read = new Promise<TransactionResult>((resolve) =>
      resolve(reader.getTransaction(id, { readFor: 'webhook' })),
    );
    read.then(
      () => (reading -= 1),
      (error: unknown) => {
        reading -= 1;
        if (forMs > 0 && (error as { code?: unknown } | null)?.code === 'transaction_not_found') {
          // Deleting first moves an expired id to the end: the first key is the one to forget.
          notFound.delete(id);
          notFound.set(id, now() + forMs);
          if (notFound.size > NOT_FOUND_CAP) notFound.delete(notFound.keys().next().value as string);
        }
      },
    );
    const done = deliver(read).finally(() => running.delete(id));
    running.set(id, [read, done]);
    return done;
  };
}
