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
  /** Whether a renewal of it is on its way to the journal. */
  renewing: boolean;
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
 * ends at least half a lease later than before. A renewal that fails is logged and tried again on
 * the next tick, a quarter lease later, while the lease still has a quarter of it left; one the
 * journal answers `false` to (the intent has an outcome already, or the lease ended and another
 * instance holds it) is logged and not renewed again. A journal without `renewSending` gets no timer.
 */
export function sendingLeases(
  journal: PaymentJournal,
  logger: WalletLogger | undefined,
  leaseMs = SENDING_LEASE_MS,
): SendingLeases {
  const held = new Set<HeldLease>();
  let timer: ReturnType<typeof setInterval> | undefined;
  const forget = (lease: HeldLease) => {
    if (!held.delete(lease) || held.size > 0) return;
    clearInterval(timer);
    timer = undefined;
  };
  const renew = async (lease: HeldLease) => {
    const { referenceId, recordedBy } = lease;
    lease.renewing = true;
    try {
      // Awaited inside the try: a journal written in JavaScript may throw at once, or answer a plain value.
      const renewed = await journal.renewSending?.(referenceId, recordedBy, leaseMs);
      if (renewed !== false) {
        lease.ticks = 0;
        return;
      }
      forget(lease);
      logger?.warn?.(
        "The payment journal no longer holds this call's sending lease: the intent has an outcome already, or the lease ended and another instance may send it again",
        { referenceId },
      );
    } catch (error) {
      logger?.warn?.('The payment journal could not renew a sending lease', {
        referenceId,
        error: describeError(error),
      });
    } finally {
      lease.renewing = false;
    }
  };
  const tick = () => {
    for (const lease of held) {
      if (lease.renewing) continue;
      lease.ticks += 1;
      if (lease.ticks >= 2) void renew(lease);
    }
  };
  return {
    hold(referenceId, recordedBy) {
      const lease: HeldLease = { referenceId, recordedBy, ticks: 0, renewing: false };
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
      if (lease !== undefined) forget(lease);
    },
  };
}
