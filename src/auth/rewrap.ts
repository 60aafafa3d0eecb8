import { WalletRequestValidationError } from '../errors.js';
import type { TokenCipher } from './token-cipher.js';
import type { TokenStore } from './token-store.js';
import { editRecord, parseRecord, USER_PREFIX, type UserRecord } from './user-record.js';

/** Options of `vault.rewrap()`. */
export interface RewrapOptions {
  /**
   * Rows read per batch.
   * @default 100
   */
  batchSize?: number | undefined;
  /** Resume after this cursor: the `next` of a report whose run stopped early. */
  after?: string | undefined;
  /** Stops after the batch in progress; the report's `next` says where to resume. */
  signal?: AbortSignal | undefined;
}

/** What `vault.rewrap()` did. */
export interface RewrapReport {
  /** Users whose row was read. */
  readonly scanned: number;
  /** Tokens re-encrypted under the primary key. */
  readonly rewrapped: number;
  /** Where to resume when `signal` stopped the run; `undefined` once every row was read. */
  readonly next: string | undefined;
}

/**
 * Re-encrypts every token not under `primary`, batch by batch in key order. Each token keeps its
 * id (its IV), so a promotion or a drop racing the rewrap still finds it. Each row changes by
 * compare-and-set, so a token received meanwhile is never overwritten, nor one dropped brought back; running it again skips what
 * is done, so a stopped run resumes from its `next` cursor or from the start.
 */
export async function rewrapRecords(
  store: TokenStore,
  cipher: TokenCipher,
  primary: string,
  options: RewrapOptions = {},
): Promise<RewrapReport> {
  const { batchSize = 100, signal } = options;
  if (!Number.isSafeInteger(batchSize) || batchSize < 1 || batchSize > 10_000) {
    throw new WalletRequestValidationError([
      { path: 'batchSize', message: 'must be a whole number from 1 to 10000' },
    ]);
  }
  let after = options.after;
  let scanned = 0;
  let rewrapped = 0;
  for (;;) {
    if (signal?.aborted) return { scanned, rewrapped, next: after };
    const page = await store.scan(USER_PREFIX, after, batchSize);
    for (const entry of page) {
      const email = entry.key.slice(USER_PREFIX.length);
      scanned++;
      rewrapped += await rewrapUser(store, cipher, primary, email, parseRecord(entry.value));
    }
    if (page.length < batchSize) return { scanned, rewrapped, next: undefined };
    after = page[page.length - 1]?.key;
  }
}

async function rewrapUser(
  store: TokenStore,
  cipher: TokenCipher,
  primary: string,
  email: string,
  seen: UserRecord,
): Promise<number> {
  const stale = (sealed: string | undefined) => sealed !== undefined && cipher.keyIdOf(sealed) !== primary;
  if (!stale(seen.current) && !stale(seen.candidate)) return 0;
  const fresh = new Map<string, string>();
  for (const sealed of [seen.current, seen.candidate]) {
    if (sealed !== undefined && stale(sealed)) fresh.set(sealed, await cipher.reseal(email, sealed));
  }
  let count = 0;
  await editRecord(store, email, (record) => {
    const swap = (sealed: string | undefined) =>
      sealed === undefined ? undefined : (fresh.get(sealed) ?? sealed);
    const next = { current: swap(record.current), candidate: swap(record.candidate) };
    count = Number(next.current !== record.current) + Number(next.candidate !== record.candidate);
    return count > 0 ? next : undefined;
  });
  return count;
}
