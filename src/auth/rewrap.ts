import { type WalletIssue, WalletRequestValidationError } from '../errors.js';
import { isAbortSignal } from '../limits.js';
import { type OptionKeys, unknownOptionKeys } from '../option-keys.js';
import { WalletTokenDecryptionError } from './errors.js';
import type { TokenCipher } from './token-cipher.js';
import type { TokenOwners } from './token-owners.js';
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
  /**
   * Tokens not under the primary key that the keyring's key of the id they name does not open:
   * altered, moved from another user's row, sealed with other key bytes under the same id, or not
   * in the vault's format. Each is left as it is and
   * counted again by every later run: no key can read it, so its user must log in again. Many of
   * them at once more likely mean a wrong key in the keyring: check the key before forgetting users.
   */
  readonly unreadable: number;
  /**
   * The e-mails of the users with an {@link RewrapReport.unreadable} token, each once, at most the
   * first 1,000 (never a token or a key): `vault.forget(email)` removes the row.
   */
  readonly unreadableUsers: readonly string[];
  /** Where to resume when `signal` stopped the run; `undefined` once every row was read. */
  readonly next: string | undefined;
}

/** How many users with an unreadable token a report names, so a run keeps a bounded list. */
const MAX_UNREADABLE_USERS = 1_000;

/** Every key of {@link RewrapOptions}: a key given but not listed here is refused. */
const REWRAP_OPTION_KEYS: OptionKeys<RewrapOptions> = { batchSize: true, after: true, signal: true };

/** The options of a rewrap with defaults applied; throws naming every bad one. */
function readRewrapOptions(options: unknown) {
  if (options === undefined) options = {};
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new WalletRequestValidationError([
      { path: 'options', message: 'must be an object { batchSize?, after?, signal? }, or left out' },
    ]);
  }
  const given = options as RewrapOptions;
  const issues: WalletIssue[] = unknownOptionKeys(given, REWRAP_OPTION_KEYS).map((key) => ({
    path: key,
    message: 'is not a rewrap option (batchSize, after, signal)',
  }));
  const { batchSize = 100, after, signal } = given;
  if (!Number.isSafeInteger(batchSize) || batchSize < 1 || batchSize > 10_000) {
    issues.push({ path: 'batchSize', message: 'must be a whole number from 1 to 10000' });
  }
  if (after !== undefined && typeof after !== 'string') {
    issues.push({ path: 'after', message: "must be the string a report's next gave" });
  }
  if (signal !== undefined && !isAbortSignal(signal)) {
    issues.push({ path: 'signal', message: 'must be an AbortSignal' });
  }
  if (issues.length > 0) throw new WalletRequestValidationError(issues);
  return { batchSize, after, signal };
}

/**
 * Re-encrypts every token not under `primary`, batch by batch in key order. Each token keeps its
 * id (its IV), so a promotion or a drop racing the rewrap still finds it. Each row changes by
 * compare-and-set, so a token received meanwhile is never overwritten, nor one dropped brought back; running it again skips what
 * is done, so a stopped run resumes from its `next` cursor or from the start. A token that does not
 * open is left as it is and counted as unreadable, so one bad row never stops a rotation. Each token
 * re-sealed is bound to its user under the primary key too ({@link TokenOwners.carry}).
 */
export async function rewrapRecords(
  store: TokenStore,
  cipher: TokenCipher,
  owners: TokenOwners,
  primary: string,
  options?: RewrapOptions,
): Promise<RewrapReport> {
  const { batchSize, signal, ...cursor } = readRewrapOptions(options);
  let after = cursor.after;
  let scanned = 0;
  let rewrapped = 0;
  let unreadable = 0;
  const unreadableUsers: string[] = [];
  const report = (next: string | undefined) => ({ scanned, rewrapped, unreadable, unreadableUsers, next });
  for (;;) {
    if (signal?.aborted) return report(after);
    const page = await store.scan(USER_PREFIX, after, batchSize);
    for (const entry of page) {
      const email = entry.key.slice(USER_PREFIX.length);
      scanned++;
      const done = await rewrapUser(store, cipher, owners, primary, email, parseRecord(entry.value));
      rewrapped += done.rewrapped;
      unreadable += done.unreadable;
      if (done.unreadable > 0 && unreadableUsers.length < MAX_UNREADABLE_USERS) unreadableUsers.push(email);
    }
    if (page.length < batchSize) return report(undefined);
    after = page[page.length - 1]?.key;
  }
}

/** What a rewrap did to one user's row: tokens re-encrypted, and tokens left because none opens. */
interface RowRewrap {
  readonly rewrapped: number;
  readonly unreadable: number;
}

const UNTOUCHED: RowRewrap = { rewrapped: 0, unreadable: 0 };

async function rewrapUser(
  store: TokenStore,
  cipher: TokenCipher,
  owners: TokenOwners,
  primary: string,
  email: string,
  seen: UserRecord,
): Promise<RowRewrap> {
  const stale = (sealed: string | undefined) => sealed !== undefined && cipher.keyIdOf(sealed) !== primary;
  if (!stale(seen.current) && !stale(seen.candidate)) return UNTOUCHED;
  const fresh = new Map<string, string>();
  const unopened = new Set<string>();
  for (const sealed of [seen.current, seen.candidate]) {
    if (sealed === undefined || !stale(sealed)) continue;
    const resealed = await resealIfReadable(cipher, owners, email, sealed);
    if (resealed === undefined) unopened.add(sealed);
    else fresh.set(sealed, resealed);
  }
  let done = UNTOUCHED;
  await editRecord(store, email, (record) => {
    const swap = (sealed: string | undefined) =>
      sealed === undefined ? undefined : (fresh.get(sealed) ?? sealed);
    const next = { current: swap(record.current), candidate: swap(record.candidate) };
    const left = (sealed: string | undefined) => Number(sealed !== undefined && unopened.has(sealed));
    done = {
      rewrapped: Number(next.current !== record.current) + Number(next.candidate !== record.candidate),
      unreadable: left(record.current) + left(record.candidate),
    };
    return done.rewrapped > 0 ? next : undefined;
  });
  return done;
}

/**
 * `sealed` under the primary key, or `undefined` when it does not open (a
 * {@link WalletTokenDecryptionError}); any other error, such as a key id the keyring lacks, is thrown.
 * The token's owner entry is carried to the primary key first, even when the row changes meanwhile,
 * so its binding outlives the old key's retirement.
 */
async function resealIfReadable(cipher: TokenCipher, owners: TokenOwners, email: string, sealed: string) {
  try {
    await owners.carry(email, await cipher.open(email, sealed));
    return await cipher.reseal(email, sealed);
  } catch (error) {
    if (error instanceof WalletTokenDecryptionError) return undefined;
    throw error;
  }
}
