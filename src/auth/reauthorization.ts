import { WalletApiError } from '../errors.js';
import type { WebhookDedupeStore } from '../webhooks/dedupe.js';

/**
 * The codes that mean the user's authorization is gone: no token reached the service, or the
 * token is revoked, expired, or was never given to this application. The spec names no other
 * code for an invalid token, and says the login flow must then be repeated.
 */
export const REAUTHORIZATION_CODES: ReadonlySet<string> = new Set([
  'authorization_token_not_found',
  'application_not_authorized',
]);

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

/** What {@link reauthorizationNotifier} runs with. */
export interface NotifierDeps {
  /** Where notices are de-duplicated across instances. */
  readonly dedupe: WebhookDedupeStore;
  /** The merchant's hook; nothing runs without one. */
  readonly hook: ((notice: ReauthorizationNotice) => void | Promise<void>) | undefined;
  /** A fresh login URL bound to the user, for the notice; `undefined` without login settings. */
  readonly loginUrlFor: (email: string) => Promise<string | undefined>;
  /** Reports a failure of the hook, the dedupe store or the login URL; never with a token. */
  readonly failed: (userEmail: string, error: unknown) => void;
}

/**
 * Calls the hook once per refused token across every instance sharing `dedupe`: the key is the
 * user's e-mail and the refused token's id (its IV, kept by a rewrap), so a user who reconnects and
 * is revoked again is told again. A hook that throws frees the key for the next refusal.
 *
 * The notice is sent off the caller's path: it starts on a later turn of the event loop, after the
 * caller has its error, and nothing waits for it, so a slow or hung hook never holds a payment.
 */
export function reauthorizationNotifier(
  deps: NotifierDeps,
): (userEmail: string, code: string, tokenId: string) => void {
  const { dedupe, hook, failed } = deps;
  const run = async (userEmail: string, code: string, tokenId: string) => {
    if (hook === undefined) return;
    const key = `reauthorization:${userEmail}:${tokenId}`;
    const claim = await dedupe.claim(key, NOTICE_LEASE_MS);
    const lease = typeof claim === 'object' && claim.outcome === 'claimed' ? claim.lease : undefined;
    if (claim !== true && lease === undefined) return;
    try {
      await hook({ userEmail, loginUrl: await deps.loginUrlFor(userEmail), code });
      if (lease !== undefined) await dedupe.complete?.(key, lease);
    } catch (error) {
      failed(userEmail, error);
      if (lease !== undefined) await dedupe.release?.(key, lease);
    }
  };
  return (userEmail, code, tokenId) => {
    if (hook === undefined) return;
    setTimeout(() => {
      run(userEmail, code, tokenId).catch((error: unknown) => failed(userEmail, error));
    }, 0);
  };
}
