import type { SandboxErrorCode } from '../http/status.js';
import { emailKey, type MerchantRecord, type SandboxState, type UserRecord } from '../model/state.js';

/** Header names are lower-case, as Node and the Fetch API give them. */
export type RequestHeaders = Readonly<Record<string, string | undefined>>;

type Checked<T> = { ok: true; value: T } | { ok: false; code: SandboxErrorCode };

/** The merchant behind `x-api-key`: `missing_api_key` when absent or blank, `invalid_api_key` when unknown. */
export function merchantFromApiKey(state: SandboxState, headers: RequestHeaders): Checked<MerchantRecord> {
  const key = headers['x-api-key']?.trim();
  if (!key) return { ok: false, code: 'missing_api_key' };
  const merchant = state.merchantsByKey.get(key);
  return merchant ? { ok: true, value: merchant } : { ok: false, code: 'invalid_api_key' };
}

/**
 * The user behind `Authorization: Bearer <token>` for this merchant's app.
 * No bearer token gives `authorization_token_not_found`; a token that is
 * unknown, revoked or issued to another app gives `application_not_authorized`,
 * since in every case the user has to approve this app again.
 */
export function userFromBearer(
  state: SandboxState,
  headers: RequestHeaders,
  merchant: MerchantRecord,
): Checked<UserRecord> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '');
  if (!match?.[1]) return { ok: false, code: 'authorization_token_not_found' };
  const record = state.tokens.get(match[1]);
  if (!record || record.revoked || record.appId !== merchant.appId) {
    return { ok: false, code: 'application_not_authorized' };
  }
  const user = state.users.get(emailKey(record.email));
  return user ? { ok: true, value: user } : { ok: false, code: 'application_not_authorized' };
}
