import { WalletConfigError } from '../errors.js';
import type { WebhookEvent } from './parse.js';

/**
 * How a claim of an event's key ended: `claimed` (process it, under the `lease`), `in_progress`
 * (another delivery holds a live lease: it is being processed, so answer "later", never
 * "duplicate", or the event is lost if that process dies) or `duplicate` (processed: acknowledge).
 */
export type DedupeClaim =
  | {
      /** Process the event, then `complete` the key (or `release` it if processing failed). */
      readonly outcome: 'claimed';
      /** Names this claim, so that only its holder completes or releases the key. */
      readonly lease: string;
    }
  | {
      /** Another delivery of the event is being processed now. */
      readonly outcome: 'in_progress';
      /** When its lease ends at the latest, in milliseconds from now. */
      readonly retryAfterMs: number;
    }
  | {
      /** The event was processed: acknowledge it without processing. */
      readonly outcome: 'duplicate';
    };

/**
 * Where the webhook handler remembers which events are being and have been processed. Give one
 * backed by shared storage (`merchant-wallet/redis`, `merchant-wallet/postgres`) when several
 * processes receive webhooks; the default only sees its own process.
 *
 * A key is claimed with a short processing lease, held for the store's time to live only once the
 * callback succeeded (`complete`), and freed at once when it failed (`release`). A process that
 * dies in the callback leaves a lease that simply ends, and a redelivery after it is processed.
 */
export interface WebhookDedupeStore {
  /**
   * Claims `key` for `leaseMs` milliseconds unless it is under a live lease or completed. Must be
   * atomic: of concurrent claims of one key, exactly one is `claimed`.
   *
   * A store written for the former interface answers a boolean (`true`: claimed, `false`:
   * duplicate): it has no lease, so a process that dies in the callback leaves the key taken for
   * its whole time to live and the event is never processed. Move such a store to leases.
   */
  claim(key: string, leaseMs: number): Promise<DedupeClaim | boolean> | DedupeClaim | boolean;
  /** Holds `key` for the store's time to live: the event was processed. Only the lease's holder can. */
  complete?(key: string, lease: string): Promise<void> | void;
  /** Frees `key`, so a redelivery is processed at once: the callback failed. Only the lease's holder can. */
  release?(key: string, lease: string): Promise<void> | void;
}

/** How long a delivery's claim lasts while its callback runs, unless the handler says otherwise. */
export const DEFAULT_LEASE_MS = 120_000;

/** Options of {@link createMemoryDedupeStore}. */
export interface MemoryDedupeStoreOptions {
  /**
   * How many keys are remembered; the least recently claimed is forgotten first.
   * @default 10000
   */
  maxKeys?: number;
  /**
   * How long a processed key is remembered, in milliseconds; after that a redelivery is processed again.
   * @default Infinity (until `maxKeys` pushes it out)
   */
  ttlMs?: number;
}

/** A random lease name: 128 bits, so no two claims ever share one. */
export function newLease(): string {
  return crypto.randomUUID();
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
  // A Map iterates in insertion order, so its first key is the oldest claim. Each key maps to its
  // expiry and its lease, `''` once completed (a pair rather than an object: this is in the
  // webhooks entry, whose size is budgeted).
  const keys = new Map<string, [expiresAt: number, lease: string]>();
  return {
    claim(key, leaseMs) {
      const now = Date.now();
      const [expiresAt = 0, held] = keys.get(key) ?? [];
      if (expiresAt > now) {
        return held ? { outcome: 'in_progress', retryAfterMs: expiresAt - now } : { outcome: 'duplicate' };
      }
      // Deleting first moves a re-claimed expired key to the end of the insertion order.
      keys.delete(key);
      const lease = newLease();
      keys.set(key, [now + leaseMs, lease]);
      if (keys.size > maxKeys) keys.delete(keys.keys().next().value as string);
      return { outcome: 'claimed', lease };
    },
    complete(key, lease) {
      if (keys.get(key)?.[1] === lease) keys.set(key, [Date.now() + ttlMs, '']);
    },
    release(key, lease) {
      if (keys.get(key)?.[1] === lease) keys.delete(key);
    },
  };
}

/** A store's answer to a claim, in the lease form; a former store's boolean has no lease. */
export function claimOutcome(answer: DedupeClaim | boolean): DedupeClaim {
  if (answer === true) return { outcome: 'claimed', lease: '' };
  if (answer === false) return { outcome: 'duplicate' };
  return answer;
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
