import { WalletConfigError } from '../../errors.js';
import { emailKey, type SandboxState, type TokenRecord } from '../model/state.js';

/**
 * A revocation named a token or user the sandbox does not hold (the control API answers 404).
 * A `WalletConfigError`, so code catching those catches it too; `option` names the field.
 */
export class SandboxNotFoundError extends WalletConfigError {}

/** Whose tokens `sandbox.revoke` ends: one token, or a user's (for one app, or every app). */
export type RevokeTarget =
  | {
      /** The token to end, as sent in `Authorization: Bearer`. Never echoed in errors or answers. */
      token: string;
      /** Not with `token`. */
      email?: never;
      /** Not with `token`. */
      appId?: never;
    }
  | {
      /** The user whose tokens to end, matched case-insensitively. */
      email: string;
      /** Only the user's token for this app. @default every app */
      appId?: string;
      /** Not with `email`. */
      token?: never;
    };

/** What a revocation did. */
export interface RevokeResult {
  /** The user whose tokens were ended. */
  email: string;
  /** How many live tokens it ended; 0 when they were revoked already (revoking is idempotent). */
  revoked: number;
}

function checkedString(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new WalletConfigError(field, 'must be a non-empty string');
  }
  return value;
}

/** The token records `target` names, checked in full before anything changes. */
function recordsOf(state: SandboxState, target: RevokeTarget): { email: string; records: TokenRecord[] } {
  if (typeof target !== 'object' || target === null)
    throw new WalletConfigError('target', 'must be an object');
  const { token, email, appId } = target as Record<string, unknown>;
  if ((token === undefined) === (email === undefined)) {
    throw new WalletConfigError('target', 'must name exactly one of token and email');
  }
  if (token !== undefined) {
    if (appId !== undefined) throw new WalletConfigError('appId', 'goes with email, not token');
    // The token is a credential: the message says it is unknown without repeating it.
    const record = state.tokens.get(checkedString(token, 'token'));
    if (!record) throw new SandboxNotFoundError('token', 'names no token this sandbox issued');
    return { email: state.users.get(emailKey(record.email))?.email ?? record.email, records: [record] };
  }
  const user = state.users.get(emailKey(checkedString(email, 'email')));
  if (!user) throw new SandboxNotFoundError('email', `names no sandbox user (${String(email)})`);
  if (appId !== undefined && !state.merchantsByApp.has(checkedString(appId, 'appId'))) {
    throw new SandboxNotFoundError('appId', `names no sandbox merchant (${String(appId)})`);
  }
  const records = [...state.tokens.values()].filter(
    (record) =>
      emailKey(record.email) === emailKey(user.email) && (appId === undefined || record.appId === appId),
  );
  return { email: user.email, records };
}

/**
 * Ends tokens as a user revoking the app in the wallet does: requests with them are answered
 * `application_not_authorized` from then on, until the user approves the app again (which
 * issues a new token). Throws `SandboxNotFoundError` for an unknown token, user or app.
 */
export function revokeTokens(state: SandboxState, target: RevokeTarget): RevokeResult {
  const { email, records } = recordsOf(state, target);
  let revoked = 0;
  for (const record of records) {
    if (record.revoked) continue;
    record.revoked = true;
    revoked++;
  }
  return { email, revoked };
}
