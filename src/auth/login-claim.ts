import { toBase64Url } from './base64.js';
import type { TokenStore, TokenStoreEntry } from './token-store.js';

/** A started login, as the store keeps it under its `state`. */
export interface Session {
  readonly account: string;
  readonly expectedEmail?: string | undefined;
  readonly startedAt: number;
  readonly expiresAt: number;
  readonly used?: true;
}

/** An authorization note: who authorized, and which login's state claimed it. */
interface Note {
  readonly email: string;
  /** The id of the token the authorization brought (see `TokenCipher.idOf`). */
  readonly token?: string;
  readonly claimedBy?: string;
}

/** An unclaimed note, with the stored entry its claim compares against. */
export interface UnclaimedNote extends TokenStoreEntry {
  readonly email: string;
  readonly token: string | undefined;
}

/** How long a used or expired state, or a claimed note, is remembered. */
export const REMEMBER_MS = 24 * 3600_000;
/** The longest a login may last. */
export const MAX_TTL_MS = 24 * 3600_000;

const NOTE_PREFIX = 'authorized:';
const noteKey = (at: number) => `${NOTE_PREFIX}${String(at).padStart(15, '0')}`;
const PAGE = 100;

/**
 * Notes that an authorization of `email` bringing the token `tokenId` arrived now; notes expire
 * once no login can match them.
 */
export async function noteAuthorization(store: TokenStore, email: string, tokenId: string): Promise<void> {
  const key = `${noteKey(Date.now())}:${toBase64Url(crypto.getRandomValues(new Uint8Array(6)))}`;
  const note: Note = { email, token: tokenId };
  await store.compareAndSet(key, undefined, JSON.stringify(note), MAX_TTL_MS + REMEMBER_MS);
}

async function unclaimed(store: TokenStore, session: Session): Promise<UnclaimedNote[]> {
  const found: UnclaimedNote[] = [];
  let after: string | undefined = noteKey(session.startedAt);
  for (;;) {
    const page = await store.scan(NOTE_PREFIX, after, PAGE);
    for (const entry of page) {
      const note = JSON.parse(entry.value) as Note;
      if (note.claimedBy === undefined) found.push({ ...entry, email: note.email, token: note.token });
    }
    if (page.length < PAGE) return found;
    after = page[page.length - 1]?.key;
  }
}

/**
 * The unclaimed notes a login matches: those of the session's expected e-mail, or else of `email`,
 * when one is known (never `email` over the expected one: a login started for a user links only that
 * user), else those of the only user who authorized in its window; `ambiguous` counts the users when
 * several did.
 */
export async function matchNotes(
  store: TokenStore,
  session: Session,
  email: string | undefined,
): Promise<{ notes: UnclaimedNote[]; ambiguous: number }> {
  const notes = await unclaimed(store, session);
  const wanted = session.expectedEmail ?? email;
  if (wanted !== undefined) return { notes: notes.filter((note) => note.email === wanted), ambiguous: 0 };
  const emails = new Set(notes.map((note) => note.email));
  if (emails.size > 1) return { notes: [], ambiguous: emails.size };
  return { notes, ambiguous: 0 };
}

/**
 * Claims every one of `notes` for `state` by compare-and-set, or none: answers the claims taken,
 * or `undefined` when another login claimed one first (the ones taken here are given back). So an
 * authorization links at most one login, whatever the interleaving, across instances.
 */
export async function claimNotes(store: TokenStore, notes: readonly UnclaimedNote[], state: string) {
  const taken: Array<{ note: UnclaimedNote; claimed: string }> = [];
  for (const note of notes) {
    const claimed = JSON.stringify({ email: note.email, token: note.token, claimedBy: state });
    if (!(await store.compareAndSet(note.key, note.value, claimed, REMEMBER_MS))) {
      await releaseNotes(store, taken);
      return undefined;
    }
    taken.push({ note, claimed });
  }
  return taken;
}

/** Gives back notes claimed by {@link claimNotes}, each only while it still holds that claim. */
export async function releaseNotes(
  store: TokenStore,
  taken: ReadonlyArray<{ note: UnclaimedNote; claimed: string }>,
): Promise<void> {
  for (const { note, claimed } of taken) {
    await store.compareAndSet(note.key, claimed, note.value, MAX_TTL_MS + REMEMBER_MS);
  }
}
