/**
 * The sending lease of a journaled payment: the write that records the intent takes it, so that
 * neither `recover()` nor the sweeper of any instance re-sends a payment whose own call is still
 * sending it. A call that runs longer than a quarter to half of the lease has it renewed; most calls
 * never do, so the lease costs no write beyond the record itself. The outcome update frees it.
 */
import type { PaymentJournal } from '../journal/types.js';
import type { WalletLogger } from '../logger.js';
import { describeError } from '../settlement/settle.js';

/**
 * How long a call holds the intent it records before its lease must be renewed: long enough that a
 * call answered within 7.5 s never renews it, short enough that a crashed call's intent is re-sent
 * by `recover()` half a minute after the crash.
 */
export const SENDING_LEASE_MS = 30_000;

/** The lease of one call in flight, as {@link SendingLeases} holds it. */
export interface HeldLease {
  readonly referenceId: string;
  readonly recordedBy: string;
  /** The renewal timer's ticks seen since the lease was taken or last renewed. */
  ticks: number;
}

/** The sending leases of one journal's calls in flight: see {@link sendingLeases}. */
export interface SendingLeases {
  /** Keeps renewing the lease `recordedBy` took on `referenceId` until it is released. */
  hold(referenceId: string, recordedBy: string): HeldLease;
  /** Stops renewing `lease`: its call has ended. A call that held none passes `undefined`. */
  release(lease: HeldLease | undefined): void;
}

/**
 * The sending leases of one journal's calls in flight, renewed by one timer for them all rather than
 * one per call. The timer ticks every quarter lease while any lease is held; a lease is renewed on
 * the second tick it sees, so between a quarter and half a lease after it was taken or renewed, and
 * ends at least half a lease later than before. A journal without `renewSending` gets no timer.
 */
export function sendingLeases(
  journal: PaymentJournal,
  logger: WalletLogger | undefined,
  leaseMs = SENDING_LEASE_MS,
): SendingLeases {
  const held = new Set<HeldLease>();
  let timer: ReturnType<typeof setInterval> | undefined;
  const renew = ({ referenceId, recordedBy }: HeldLease) =>
    journal.renewSending?.(referenceId, recordedBy, leaseMs).catch((error: unknown) => {
      logger?.warn?.('The payment journal could not renew a sending lease', {
        referenceId,
        error: describeError(error),
      });
    });
  const tick = () => {
    for (const lease of held) {
      lease.ticks += 1;
      if (lease.ticks < 2) continue;
      lease.ticks = 0;
      void renew(lease);
    }
  };
  return {
    hold(referenceId, recordedBy) {
      const lease: HeldLease = { referenceId, recordedBy, ticks: 0 };
      if (journal.renewSending === undefined) return lease;
      held.add(lease);
      if (timer === undefined) {
        timer = setInterval(tick, leaseMs / 4);
        // A call in flight keeps its own process alive; the renewals alone never do.
        (timer as { unref?: () => void }).unref?.();
      }
      return lease;
    },
    release(lease) {
      if (lease === undefined || !held.delete(lease) || held.size > 0) return;
      clearInterval(timer);
      timer = undefined;
    },
  };
}
