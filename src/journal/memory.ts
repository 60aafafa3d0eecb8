import {
  checkId,
  checkLimit,
  checkNewIntent,
  checkState,
  checkUpdate,
  freshIntent,
  mergeIntent,
} from './merge.js';
import type { PaymentIntent, PaymentJournal } from './types.js';

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
    async list(state, options) {
      checkState(state);
      const limit = checkLimit(options);
      const found = [...intents.values()].filter((intent) => intent.state === state);
      return limit === undefined ? found : found.slice(0, limit);
    },
  };
}
