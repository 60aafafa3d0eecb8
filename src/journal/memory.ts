import { checkId, checkLimit, checkNewIntent, checkState, checkUpdate } from './checks.js';
import { isoClock } from './clock.js';
import { isDue } from './due.js';
import { freshIntent, mergeIntent } from './merge.js';
import { compareIntents, listWithQueries, pageOf } from './query.js';
import {
  FINAL_STATUSES,
  type PaymentIntent,
  type PaymentIntentUpdate,
  type PaymentJournal,
  SENDING_LEASE_PREFIX,
} from './types.js';

/** Intents' times and their leases' ends, each remembered apart: the two alternate. */
const isoAt = isoClock();
const leaseIsoAt = isoClock();

/**
 * A {@link PaymentJournal} in this process's memory: for tests, the sandbox demo and a single
 * process that accepts losing its journal on a crash. Use `merchant-wallet/postgres` or
 * `merchant-wallet/redis` in production.
 *
 * @example
 * const wallet = new WalletClient({ apiKey, baseUrl, journal: createMemoryJournal() });
 */
export function createMemoryJournal(): PaymentJournal {
  const intents = new Map<string, PaymentIntent>();
  const byTransactionId = new Map<string, string>();
  // Leases of the sweeper and of settlement: who holds an intent, and until when (ms).
  const leases = new Map<string, { lease: string; until: number }>();
  const free = (referenceId: string, now: number) => (leases.get(referenceId)?.until ?? 0) <= now;
  const holds = (referenceId: string, lease: string) => leases.get(referenceId)?.lease === lease;
  // The intent as read: with when its lease ends, if one holds it.
  const view = (intent: PaymentIntent): PaymentIntent => {
    const held = leases.get(intent.referenceId);
    return held === undefined ? intent : { ...intent, leaseUntil: leaseIsoAt(held.until) };
  };
  const store = (intent: PaymentIntent): PaymentIntent => {
    intents.set(intent.referenceId, intent);
    if (intent.transactionId !== undefined) byTransactionId.set(intent.transactionId, intent.referenceId);
    return view(intent);
  };
  // Synchronous, so releaseDueWith applies an update and a release with nothing in between.
  const apply = (referenceId: string, change: PaymentIntentUpdate) => {
    checkId('referenceId', referenceId);
    checkUpdate(change);
    const existing = intents.get(referenceId);
    if (existing === undefined) return undefined;
    const merged = mergeIntent(existing, change, isoAt(Date.now()));
    // The outcome of the call that holds the sending lease frees it.
    if (merged.state !== 'sending' && leases.get(referenceId)?.lease.startsWith(SENDING_LEASE_PREFIX))
      leases.delete(referenceId);
    return store(merged);
  };
  const update: PaymentJournal['update'] = async (referenceId, change) => apply(referenceId, change);
  const release = (referenceId: string, lease: string, nextCheckAt: string | undefined) => {
    const intent = intents.get(referenceId);
    if (intent === undefined || !holds(referenceId, lease)) return;
    leases.delete(referenceId);
    store({ ...intent, nextCheckAt, checks: (intent.checks ?? 0) + 1 });
  };
  return {
    async record(intent) {
      checkNewIntent(intent);
      const existing = intents.get(intent.referenceId);
      if (existing !== undefined) {
        return store({ ...existing, records: existing.records + 1 });
      }
      const now = Date.now();
      if (intent.recordedBy !== undefined && intent.sendingLeaseMs !== undefined) {
        const lease = `${SENDING_LEASE_PREFIX}${intent.recordedBy}`;
        leases.set(intent.referenceId, { lease, until: now + intent.sendingLeaseMs });
      }
      return store(freshIntent(intent, isoAt(now)));
    },
    update,
    async updateByTransactionId(transactionId, change) {
      checkId('transactionId', transactionId);
      const referenceId = byTransactionId.get(transactionId);
      return referenceId === undefined ? undefined : update(referenceId, change);
    },
    async get(referenceId) {
      const intent = intents.get(checkId('referenceId', referenceId));
      return intent && view(intent);
    },
    list: listWithQueries(
      async (state, options) => {
        checkState(state);
        const limit = checkLimit(options);
        const found = [...intents.values()].filter((intent) => intent.state === state).map(view);
        return limit === undefined ? found : found.slice(0, limit);
      },
      async (query) => pageOf([...intents.values()].map(view).sort(compareIntents), query),
    ),
    async claimSettlement(referenceId, lease, leaseMs) {
      const intent = intents.get(checkId('referenceId', referenceId));
      const now = Date.now();
      const status = intent?.transactionStatus;
      if (intent === undefined) return undefined;
      // A refusal is settled as a final status is: once, for onRefused.
      if (intent.state !== 'refused' && (status === undefined || !FINAL_STATUSES.has(status)))
        return undefined;
      if (intent.settledAt !== undefined || !free(referenceId, now)) return undefined;
      leases.set(referenceId, { lease, until: now + leaseMs });
      return view(intent);
    },
    async completeSettlement(referenceId, lease) {
      const intent = intents.get(referenceId);
      if (intent === undefined || !holds(referenceId, lease)) return false;
      leases.delete(referenceId);
      store({ ...intent, settledAt: isoAt(Date.now()) });
      return true;
    },
    async claimDue(query) {
      const now = Date.now();
      const due = [...intents.values()]
        .filter((intent) => free(intent.referenceId, now) && isDue(intent, query, now))
        .sort((a, b) => Date.parse(a.updatedAt) - Date.parse(b.updatedAt))
        .slice(0, query.limit);
      for (const intent of due)
        leases.set(intent.referenceId, { lease: query.lease, until: now + query.leaseMs });
      return due.map(view);
    },
    async releaseDue(referenceId, lease, nextCheckAt) {
      release(referenceId, lease, nextCheckAt);
    },
    async releaseDueWith(referenceId, lease, nextCheckAt, change) {
      apply(referenceId, change);
      release(referenceId, lease, nextCheckAt);
    },
    async renewSending(referenceId, recordedBy, leaseMs) {
      const held = leases.get(checkId('referenceId', referenceId));
      if (
        intents.get(referenceId)?.state !== 'sending' ||
        held?.lease !== `${SENDING_LEASE_PREFIX}${recordedBy}`
      )
        return false;
      held.until = Date.now() + leaseMs;
      return true;
    },
    async now() {
      return Date.now();
    },
  };
}
