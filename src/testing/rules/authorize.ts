import { randomBytes } from 'node:crypto';
import { WalletConfigError } from '../../errors.js';
import { emailKey, type SandboxState } from '../model/state.js';

/** A token issued by approving a login. */
export interface IssuedToken {
  /** The new token. */
  token: string;
  /** The user's e-mail as the sandbox stores it. */
  email: string;
  /** Where `user_authorized` goes, if the merchant has an auth webhook URL. */
  webhookUrl: string | undefined;
  /** The user's earlier tokens for the app, which stop working now. */
  revoked: string[];
}

/**
 * Issues a new token for `email` and `appId`, revoking the user's earlier tokens for that
 * app, as approving the login page does. Throws `WalletConfigError` for an unknown user or app.
 */
export function issueToken(state: SandboxState, email: unknown, appId: unknown): IssuedToken {
  if (typeof email !== 'string') throw new WalletConfigError('email', 'must be a string');
  if (typeof appId !== 'string') throw new WalletConfigError('appId', 'must be a string');
  const user = state.users.get(emailKey(email));
  if (!user) throw new WalletConfigError('email', `names no sandbox user (${email})`);
  const merchant = state.merchantsByApp.get(appId);
  if (!merchant) throw new WalletConfigError('appId', `names no sandbox merchant (${appId})`);
  const revoked: string[] = [];
  for (const record of state.tokens.values()) {
    if (record.appId !== appId || emailKey(record.email) !== emailKey(email) || record.revoked) continue;
    record.revoked = true;
    revoked.push(record.token);
  }
  const token = `tok_${randomBytes(24).toString('base64url')}`;
  state.tokens.set(token, { token, email: user.email, appId, revoked: false });
  return { token, email: user.email, webhookUrl: merchant.authWebhookUrl, revoked };
}
