import { WalletTokenStoreError } from './errors.js';
import type { TokenStore } from './token-store.js';

/**
 * A user's row in the vault: the sealed token in use, and a sealed candidate that has not worked
 * yet. A new authorization only ever becomes the candidate, so a forged `user_authorized` webhook
 * cannot replace a token that works.
 */
export interface UserRecord {
  readonly current?: string | undefined;
  readonly candidate?: string | undefined;
}

/** Which of a user's two tokens a value is. */
export type TokenSlot = 'current' | 'candidate';

/** The vault's key of a user's row. */
export const userKey = (email: string): string => `user:${email}`;

/** The prefix every user row's key starts with. */
export const USER_PREFIX = 'user:';

/** Records by stored value, so a hot user's row is not parsed on every call (it holds no plaintext). */
const recordsByValue = new Map<string, UserRecord>();
const RECORD_CACHE_SIZE = 10_000;

/** The record a stored value holds; an empty one for none, or for a value the vault cannot read. */
export function parseRecord(value: string | undefined): UserRecord {
  if (value === undefined) return {};
  let record = recordsByValue.get(value);
  if (record === undefined) {
    if (recordsByValue.size >= RECORD_CACHE_SIZE) recordsByValue.clear();
    record = readRecord(value);
    recordsByValue.set(value, record);
  }
  return record;
}

function readRecord(value: string): UserRecord {
  try {
    const parsed = JSON.parse(value) as Record<string, unknown>;
    const slot = (name: TokenSlot) =>
      typeof parsed[name] === 'string' ? (parsed[name] as string) : undefined;
    return { current: slot('current'), candidate: slot('candidate') };
  } catch {
    return {};
  }
}

function serialize(record: UserRecord): string | undefined {
  if (record.current === undefined && record.candidate === undefined) return undefined;
  return JSON.stringify(record);
}

const MAX_TRIES = 16;

/**
 * Applies `edit` to a user's record atomically: read, edit, compare-and-set, again from the read
 * when another writer came first. `edit` answers the new record, or `undefined` to change nothing.
 * Answers the record as written (or as found when nothing changed).
 */
export async function editRecord(
  store: TokenStore,
  email: string,
  edit: (record: UserRecord) => UserRecord | undefined,
): Promise<UserRecord> {
  const key = userKey(email);
  for (let tries = 0; tries < MAX_TRIES; tries++) {
    const stored = await store.get(key);
    const record = parseRecord(stored);
    const next = edit(record);
    if (next === undefined) return record;
    if (await store.compareAndSet(key, stored, serialize(next))) return next;
  }
  throw new WalletTokenStoreError(`the row of ${email} kept changing under ${MAX_TRIES} writes in a row`);
}
