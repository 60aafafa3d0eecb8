import { codesOfKind } from '../error-codes.js';
import { WalletApiError } from '../errors.js';
import type { WebhookDedupeStore } from '../webhooks/dedupe.js';

/**
 * The codes that mean the user's authorization is gone: no token reached the service, or the
 * token is revoked, expired, or was never given to this application. The spec names no other
 * code for an invalid token, and says the login flow must then be repeated.
 */
export const REAUTHORIZATION_CODES = codesOfKind((kinds) => kinds.reauthorize);

/** Whether `error` is the service refusing a user's token. */
export function isTokenRefusal(error: unknown): error is WalletApiError {
  return error instanceof WalletApiError && REAUTHORIZATION_CODES.has(error.code);
}

/** What `onReauthorizationRequired` learns: who must log in again, and where to send them. */
export interface ReauthorizationNotice {
  /** The user whose token was refused (and forgotten). */
  readonly userEmail: string;
  /** A login URL for the user, when the vault knows its login settings. */
  readonly loginUrl: string | undefined;
  /** The refusal's error code. */
  readonly code: string;
}

const NOTICE_LEASE_MS = 60_000;

/**
 * Calls `hook` once per refused token across every instance sharing `dedupe`: the key is the
 * user's e-mail and the refused ciphertext's IV, unique to that stored token, so a user who
 * reconnects and is revoked again is told again. A hook that throws frees the key for the next refusal.
 */
export function reauthorizationNotifier(
  dedupe: WebhookDedupeStore,
  hook: ((notice: ReauthorizationNotice) => void | Promise<void>) | undefined,
  failed: (notice: ReauthorizationNotice, error: unknown) => void,
): (notice: ReauthorizationNotice, sealed: string) => Promise<void> {
  return async (notice, sealed) => {
    if (hook === undefined) return;
    const key = `reauthorization:${notice.userEmail}:${sealed.split('.')[2] ?? sealed}`;
    const claim = await dedupe.claim(key, NOTICE_LEASE_MS);
    const lease = typeof claim === 'object' && claim.outcome === 'claimed' ? claim.lease : undefined;
    if (claim !== true && lease === undefined) return;
    try {
      await hook(notice);
      if (lease !== undefined) await dedupe.complete?.(key, lease);
    } catch (error) {
      failed(notice, error);
      if (lease !== undefined) await dedupe.release?.(key, lease);
    }
  };
}
