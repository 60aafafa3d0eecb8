import { isDue } from './due.js';
import {
  checkId,
  checkLimit,
  checkNewIntent,
  checkState,
  checkUpdate,
  freshIntent,
  mergeIntent,
} from './merge.js';
import { compareIntents, listWithQueries, pageOf } from './query.js';
import { FINAL_STATUSES, type PaymentIntent, type PaymentJournal } from './types.js';

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
  const store = (intent: PaymentIntent): PaymentIntent => {
    intents.set(intent.referenceId, intent);
    if (intent.transactionId !== undefined) byTransactionId.set(intent.transactionId, intent.referenceId);
    return intent;
  };
  const update: PaymentJournal['update'] = async (referenceId, change) => {
    checkId('referenceId', referenceId);
    checkUpdate(change);
    const existing = intents.get(referenceId);
    return existing && store(mergeIntent(existing, change, new Date().toISOString()));
  };
  return {
    async record(intent) {
      checkNewIntent(intent);
      const existing = intents.get(intent.referenceId);
      if (existing !== undefined) {
        return store({ ...existing, records: existing.records + 1 });
      }
      return store(freshIntent(intent, new Date().toISOString()));
    },
    update,
    async updateByTransactionId(transactionId, change) {
      checkId('transactionId', transactionId);
      const referenceId = byTransactionId.get(transactionId);
      return referenceId === undefined ? undefined : update(referenceId, change);
    },
    async get(referenceId) {
      return intents.get(checkId('referenceId', referenceId));
    },
    list: listWithQueries(
      async (state, options) => {
        checkState(state);
        const limit = checkLimit(options);
        const found = [...intents.values()].filter((intent) => intent.state === state);
        return limit === undefined ? found : found.slice(0, limit);
      },
      async (query) => pageOf([...intents.values()].sort(compareIntents), query),
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
      return intent;
    },
    async completeSettlement(referenceId, lease) {
      const intent = intents.get(referenceId);
      if (intent === undefined || !holds(referenceId, lease)) return false;
      leases.delete(referenceId);
      store({ ...intent, settledAt: new Date().toISOString() });
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
      return due;
    },
    async releaseDue(referenceId, lease, nextCheckAt) {
      const intent = intents.get(referenceId);
      if (intent === undefined || !holds(referenceId, lease)) return;
      leases.delete(referenceId);
      store({ ...intent, nextCheckAt, checks: (intent.checks ?? 0) + 1 });
    },
  };
}
