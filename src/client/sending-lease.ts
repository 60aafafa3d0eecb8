/**
 * The sending lease of a journaled payment: the write that records the intent takes it, so that
 * neither `recover()` nor the sweeper of any instance re-sends a payment whose own call is still
 * sending it. A call that runs longer than half the lease renews it; most calls never do, so the
 * lease costs no write beyond the record itself. The outcome update frees it.
 */
import type { PaymentJournal } from '../journal/types.js';
import type { WalletLogger } from '../logger.js';
import { describeError } from '../settlement/settle.js';

/**
 * How long a call holds the intent it records before its lease must be renewed: long enough that a
 * call answered within 15 s never renews it, short enough that a crashed call's intent is re-sent
 * by `recover()` half a minute after the crash.
 */
export const SENDING_LEASE_MS = 30_000;

/** Keeps renewing the sending lease of `referenceId` while the call lives; `stop()` when it ends. */
export function keepSendingLease(
  journal: PaymentJournal,
  logger: WalletLogger | undefined,
  referenceId: string,
  recordedBy: string,
  leaseMs = SENDING_LEASE_MS,
): { stop(): void } {
  const renew = journal.renewSending?.bind(journal);
  if (renew === undefined) return { stop() {} };
  const timer = setInterval(() => {
    renew(referenceId, recordedBy, leaseMs).catch((error: unknown) => {
      logger?.warn?.('The payment journal could not renew a sending lease', {
        referenceId,
        error: describeError(error),
      });
    });
  }, leaseMs / 2);
  // A call in flight keeps its own process alive; the renewal alone never does.
  (timer as { unref?: () => void }).unref?.();
  return {
    stop() {
      clearInterval(timer);
    },
  };
}
