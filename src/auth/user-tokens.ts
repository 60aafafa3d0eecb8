import type { WalletEndpoint } from '../error-codes.js';
import { WalletApiError, WalletRequestValidationError } from '../errors.js';
import { WalletTokenDecryptionError } from './errors.js';
import { isTokenRefusal } from './reauthorization.js';
import type { TokenCipher } from './token-cipher.js';
import type { TokenStore } from './token-store.js';
import { editRecord, parseRecord, type UserRecord, userKey } from './user-record.js';
import type { TokenCheck, UserCallContext } from './vault-link.js';

/**
 * How checking a candidate ended: promoted; dropped as unusable (or no longer the candidate, another
 * writer having replaced it meanwhile); or kept because the check said nothing about the token.
 */
export type CandidateCheck =
  | { readonly outcome: 'promoted'; readonly token: string }
  | { readonly outcome: 'dropped' }
  | { readonly outcome: 'kept'; readonly error: unknown };

/**
 * Whether a token check's failure says the token is unusable: the service refused it as a token, or
 * answered 400 (a malformed or oversized header), or the client would not even send it.
 */
export function isUnusableToken(error: unknown): boolean {
  return (
    isTokenRefusal(error) ||
    (error instanceof WalletApiError && error.status === 400) ||
    error instanceof WalletRequestValidationError
  );
}

/** What the token lifecycle needs from its vault. */
export interface UserTokensDeps {
  readonly store: TokenStore;
  readonly cipher: TokenCipher;
  /**
   * The error for a user who must log in again, given the refusal of the call (none when nothing
   * was sent) and the refused token's sealed text (none when no token was refused).
   */
  readonly required: (
    email: string,
    endpoint: WalletEndpoint,
    refusal: WalletApiError | undefined,
    refused: string | undefined,
  ) => Promise<Error>;
  /** Told of a token the service took for a call and that is now the user's current one. */
  readonly proven: (email: string, token: string) => Promise<void>;
}

/**
 * A user's tokens: which one a call uses, candidate checks, promotion and forgetting. Tokens are
 * compared by their id ({@link TokenCipher.idOf}), never by sealed text, so a `rewrap` running on
 * another instance never makes a promotion or a drop miss its token.
 */
export function userTokens(deps: UserTokensDeps) {
  const { store, cipher } = deps;
  const sameToken = (sealed: string | undefined, id: string) =>
    sealed !== undefined && cipher.idOf(sealed) === id;
  const read = async (email: string): Promise<UserRecord> => parseRecord(await store.get(userKey(email)));
  const holdsToken = async (email: string) => {
    const { current, candidate } = await read(email);
    return current !== undefined || candidate !== undefined;
  };

  /** Drops the token `id` from the user's row if it is still there; answers whether it was. */
  async function drop(email: string, id: string): Promise<boolean> {
    let dropped = false;
    await editRecord(store, email, (record) => {
      const current = sameToken(record.current, id);
      const candidate = sameToken(record.candidate, id);
      dropped = current || candidate;
      if (!dropped) return undefined;
      return {
        current: current ? undefined : record.current,
        candidate: candidate ? undefined : record.candidate,
      };
    });
    return dropped;
  }

  /** Makes the candidate `id` current if it still is the candidate; answers whether `id` is current. */
  async function promote(email: string, id: string): Promise<boolean> {
    const written = await editRecord(store, email, (record) =>
      sameToken(record.candidate, id) ? { current: record.candidate, candidate: undefined } : undefined,
    );
    return sameToken(written.current, id);
  }

  /** Checks the candidate `sealed` with one `check` call: promotes it, drops it, or keeps it. */
  async function checkCandidate(email: string, sealed: string, check: TokenCheck): Promise<CandidateCheck> {
    const id = cipher.idOf(sealed);
    let token: string;
    try {
      token = await cipher.open(email, sealed);
    } catch (error) {
      if (!(error instanceof WalletTokenDecryptionError)) throw error;
      await drop(email, id);
      return { outcome: 'dropped' };
    }
    try {
      await check(token);
    } catch (error) {
      if (!isUnusableToken(error)) return { outcome: 'kept', error };
      await drop(email, id);
      return { outcome: 'dropped' };
    }
    if (!(await promote(email, id))) return { outcome: 'dropped' };
    await deps.proven(email, token);
    return { outcome: 'promoted', token };
  }

  return {
    drop,
    checkCandidate,
    read,

    /**
     * Runs `call` for the user with the token the lifecycle chooses (see `VaultLink.withToken`). A
     * refusal of a token another call has replaced meanwhile is thrown as it is: the user holds a
     * newer token, which the next call uses.
     */
    async withToken<T>(
      email: string,
      context: UserCallContext,
      call: (token: string) => Promise<T>,
    ): Promise<T> {
      let record = await read(email);
      let known: string | undefined;
      let refusedCandidate: string | undefined;
      if (record.candidate !== undefined) {
        const checked = await checkCandidate(email, record.candidate, context.check);
        if (checked.outcome === 'promoted') {
          record = { current: record.candidate };
          known = checked.token;
        } else if (checked.outcome === 'dropped') {
          refusedCandidate = record.candidate;
          record = await read(email);
        }
      }
      const sealed = record.current ?? record.candidate;
      if (sealed === undefined) {
        throw await deps.required(email, context.endpoint, undefined, refusedCandidate);
      }
      const token = known ?? (await cipher.open(email, sealed));
      let result: T;
      try {
        result = await call(token);
      } catch (error) {
        if (!isTokenRefusal(error)) throw error;
        // Another call replaced the refused token meanwhile (a new authorization, promoted): the
        // user is authorized, so the refusal is no reason to log in again, and no notice is sent.
        if (!(await drop(email, cipher.idOf(sealed))) && (await holdsToken(email))) throw error;
        throw await deps.required(email, context.endpoint, error, sealed);
      }
      if (record.current === undefined && (await promote(email, cipher.idOf(sealed))))
        await deps.proven(email, token);
      return result;
    },
  };
}
