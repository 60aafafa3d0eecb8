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

/** What {@link SendingLeases.hold} answers for a journal that cannot renew a lease. */
const UNRENEWED: HeldLease = { referenceId: '', recordedBy: '', ticks: 0 };

/**
 * The sending leases of one journal's calls in flight, renewed by one timer for them all rather than
 * one per call. The timer ticks every quarter lease while any lease is held; a lease is renewed on
 * the second tick it sees, so between a quarter and half a lease after it was taken or renewed, and
 * ends at least half a lease later than before.
 */
export class SendingLeases {
  readonly #journal: PaymentJournal;
  readonly #logger: WalletLogger | undefined;
  readonly #leaseMs: number;
  readonly #held = new Set<HeldLease>();
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(journal: PaymentJournal, logger: WalletLogger | undefined, leaseMs = SENDING_LEASE_MS) {
    this.#journal = journal;
    this.#logger = logger;
    this.#leaseMs = leaseMs;
  }

  /** Keeps renewing the lease `recordedBy` took on `referenceId` until it is {@link release}d. */
  hold(referenceId: string, recordedBy: string): HeldLease {
    if (this.#journal.renewSending === undefined) return UNRENEWED;
    const lease: HeldLease = { referenceId, recordedBy, ticks: 0 };
    this.#held.add(lease);
    if (this.#timer === undefined) {
      this.#timer = setInterval(() => this.#tick(), this.#leaseMs / 4);
      // A call in flight keeps its own process alive; the renewals alone never do.
      (this.#timer as { unref?: () => void }).unref?.();
    }
    return lease;
  }

  /** Stops renewing `lease`: its call has ended. */
  release(lease: HeldLease): void {
    if (!this.#held.delete(lease) || this.#held.size > 0) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** How many leases are held. */
  get size(): number {
    return this.#held.size;
  }

  #tick(): void {
    for (const lease of this.#held) {
      lease.ticks += 1;
      if (lease.ticks < 2) continue;
      lease.ticks = 0;
      this.#renew(lease);
    }
  }

  #renew({ referenceId, recordedBy }: HeldLease): void {
    this.#journal.renewSending?.(referenceId, recordedBy, this.#leaseMs).catch((error: unknown) => {
      this.#logger?.warn?.('The payment journal could not renew a sending lease', {
        referenceId,
        error: describeError(error),
      });
    });
  }
}
