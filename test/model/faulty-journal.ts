/** A journal wrapper that fails its next write in one of the ways a database can. */
import type { PaymentJournal, SweptUpdate } from '../../src/index.js';

/** How the next record or outcome update fails. */
export type JournalFault =
  | 'record-fails'
  | 'record-lost-reply'
  | 'record-hangs'
  | 'update-fails'
  | 'update-lost-reply'
  | 'update-hangs'
  | 'renew-fails'
  /** The process died after answering a success and before that outcome's write-behind landed. */
  | 'outcome-lost';

/** The states a successful answer writes, behind the answer. */
const SUCCESSES = new Set(['accepted', 'completed', 'failed']);

/** Long past the client's time-out: the write lands, late, after the caller gave up on it. */
const LATE_MS = 600;

/**
 * `journal` with `arm(fault)`, which makes its next matching write fail that way, and `landed()`,
 * which waits for every hung write to land.
 */
export function journalWithFaults(journal: PaymentJournal) {
  let armed: JournalFault | undefined;
  const take = (kind: 'record' | 'update') => {
    if (armed === undefined || !armed.startsWith(kind)) return undefined;
    const fault = armed;
    armed = undefined;
    return fault.slice(kind.length + 1) as 'fails' | 'lost-reply' | 'hangs';
  };
  const hung = new Set<Promise<unknown>>();
  const late = <T>(write: () => Promise<T>) => {
    const landing = new Promise<T>((resolve) => setTimeout(() => resolve(write()), LATE_MS));
    hung.add(landing);
    void landing.then(
      () => hung.delete(landing),
      () => hung.delete(landing),
    );
    return landing;
  };
  // Once armed, every renewal fails until the next arming: the lease runs out while its call lives.
  let renewals = true;
  const faulty: PaymentJournal = {
    ...journal,
    async renewSending(referenceId, recordedBy, leaseMs) {
      if (!renewals) throw new Error('connection refused');
      return (await journal.renewSending?.(referenceId, recordedBy, leaseMs)) ?? false;
    },
    async record(intent) {
      const fault = take('record');
      if (fault === 'fails') throw new Error('connection refused');
      if (fault === 'lost-reply') {
        await journal.record(intent);
        throw new Error('connection lost after COMMIT');
      }
      if (fault === 'hangs') return late(() => journal.record(intent));
      return journal.record(intent);
    },
    async update(referenceId, change) {
      if (armed === 'outcome-lost' && change.state !== undefined && SUCCESSES.has(change.state)) {
        armed = undefined;
        throw new Error('the process died before this write left it');
      }
      // The client's own closing of a failed record is never faulted: only the write it follows.
      const fault = change.state === 'closed' ? undefined : take('update');
      if (fault === 'fails') throw new Error('connection refused');
      if (fault === 'lost-reply') {
        await journal.update(referenceId, change);
        throw new Error('connection lost after COMMIT');
      }
      if (fault === 'hangs') return late(() => journal.update(referenceId, change));
      return journal.update(referenceId, change);
    },
  };
  // The sweeper writes the status it read with its release, in one write that an update's fault
  // takes as it would take the update: the release is lost with it, and the lease brings it back.
  const { releaseDueWith } = journal;
  if (releaseDueWith !== undefined) {
    const write = (referenceId: string, lease: string, next: string | undefined, change: SweptUpdate) =>
      releaseDueWith.call(journal, referenceId, lease, next, change);
    faulty.releaseDueWith = async (referenceId, lease, next, change) => {
      if (armed === 'outcome-lost' && change.state !== undefined && SUCCESSES.has(change.state)) {
        armed = undefined;
        throw new Error('the process died before this write left it');
      }
      const fault = take('update');
      if (fault === 'fails') throw new Error('connection refused');
      if (fault === 'lost-reply') {
        await write(referenceId, lease, next, change);
        throw new Error('connection lost after COMMIT');
      }
      if (fault === 'hangs') return late(() => write(referenceId, lease, next, change));
      return write(referenceId, lease, next, change);
    };
  }
  return {
    journal: faulty,
    arm(fault: JournalFault | undefined) {
      renewals = fault !== 'renew-fails';
      armed = fault === 'renew-fails' ? undefined : fault;
    },
    async landed() {
      await Promise.allSettled([...hung]);
    },
  };
}
