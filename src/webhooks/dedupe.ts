import { WalletConfigError } from '../errors.js';
import type { WebhookEvent } from './parse.js';

/**
 * Where the webhook handler remembers which events it has already processed.
 * Give one backed by shared storage (Redis `SET key 1 NX EX …`, a unique-key table)
 * when several processes receive webhooks; the default only sees its own process.
 */
export interface WebhookDedupeStore {
  /**
   * Records `key` and answers `true` if it was not recorded yet (process the event),
   * `false` if it was (a duplicate: acknowledge it without processing). Must be atomic.
   */
  claim(key: string): Promise<boolean> | boolean;
  /** Forgets `key`, so a redelivery is processed. Called when the callback failed. */
  release?(key: string): Promise<void> | void;
}

/** Options of {@link createMemoryDedupeStore}. */
export interface MemoryDedupeStoreOptions {
  /**
   * How many keys are remembered; the least recently claimed is forgotten first.
   * @default 10000
   */
  maxKeys?: number;
  /**
   * How long a claimed key is remembered, in milliseconds; after that a redelivery is processed again.
   * @default Infinity (until `maxKeys` pushes it out)
   */
  ttlMs?: number;
}

/**
 * A {@link WebhookDedupeStore} in this process's memory, bounded to `maxKeys` keys.
 * The webhook handler uses one by default.
 *
 * @example
 * const handler = createWebhookHandler({ onTransaction, dedupe: createMemoryDedupeStore({ maxKeys: 50_000 }) });
 */
export function createMemoryDedupeStore(options: MemoryDedupeStoreOptions = {}): WebhookDedupeStore {
  const maxKeys = options.maxKeys ?? 10_000;
  if (!Number.isSafeInteger(maxKeys) || maxKeys <= 0) {
    throw new WalletConfigError('maxKeys', 'must be a positive integer');
  }
  const ttlMs = options.ttlMs ?? Number.POSITIVE_INFINITY;
  if (typeof ttlMs !== 'number' || !(ttlMs > 0))
    throw new WalletConfigError('ttlMs', 'must be a positive number');
  // A Map iterates in insertion order, so its first key is the oldest claim; the value is its expiry.
  const keys = new Map<string, number>();
  return {
    claim(key) {
      const now = Date.now();
      if ((keys.get(key) ?? 0) > now) return false;
      // Deleting first moves a re-claimed expired key to the end of the insertion order.
      keys.delete(key);
      keys.set(key, now + ttlMs);
      if (keys.size > maxKeys) keys.delete(keys.keys().next().value as string);
      return true;
    },
    release(key) {
      keys.delete(key);
    },
  };
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return btoa(String.fromCharCode(...new Uint8Array(digest)));
}

/**
 * The key that identifies an event for deduplication. A transaction event is keyed by
 * id and status, so each status change is processed once (with `verifyWith`, only an event that
 * agrees with the status read back gets this far). A `user_authorized` event is keyed by a
 * SHA-256 hash of e-mail and token: a store never holds the raw token.
 */
export async function dedupeKey(event: WebhookEvent): Promise<string> {
  if (event.type === 'transaction') return `transaction:${event.transaction_id}:${event.transaction_status}`;
  return `user_authorized:${await sha256(JSON.stringify([event.user_email, event.token]))}`;
}
