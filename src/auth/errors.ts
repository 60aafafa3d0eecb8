import type { WalletApiErrorCode, WalletEndpoint } from '../error-codes.js';
import { WalletApiError, WalletError } from '../errors.js';

/**
 * A stored token could not be decrypted: the ciphertext was altered, was made with another key of
 * the same id, or was moved from another user's row (the user's e-mail is bound into it). The
 * vault never returns such a token; treat it as a user who must connect again.
 */
export class WalletTokenDecryptionError extends WalletError {
  /** Always `'WalletTokenDecryptionError'`. */
  override readonly name = 'WalletTokenDecryptionError' as const;
  /** The user whose stored token it is. */
  readonly userEmail: string;
  /** The key id the ciphertext names, when it names one. */
  readonly keyId: string | undefined;

  constructor(userEmail: string, keyId: string | undefined, problem: string) {
    super(`The stored token of ${userEmail} cannot be decrypted: ${problem}`);
    this.userEmail = userEmail;
    this.keyId = keyId;
  }
}

/** The token store could not complete a change: another writer kept changing the same row. */
export class WalletTokenStoreError extends WalletError {
  /** Always `'WalletTokenStoreError'`. */
  override readonly name = 'WalletTokenStoreError' as const;

  constructor(problem: string) {
    super(`The token store could not complete a change: ${problem}`);
  }
}

/** Why {@link WalletLoginStateError} refused a login's `state`. */
export type LoginStateProblem = 'unknown' | 'expired' | 'used';

/**
 * `completeLogin` was given a `state` it cannot accept: never issued (or long gone), expired, or
 * already used (a replayed redirect). Start a new login.
 */
export class WalletLoginStateError extends WalletError {
  /** Always `'WalletLoginStateError'`. */
  override readonly name = 'WalletLoginStateError' as const;
  /** What is wrong with the state. */
  readonly problem: LoginStateProblem;

  constructor(problem: LoginStateProblem) {
    const why = {
      unknown: 'was never issued by startLogin, or expired long ago',
      expired: 'has expired',
      used: 'was already used: a login state is good for one completeLogin',
    } as const;
    super(`The login state ${why[problem]}; start a new login`);
    this.problem = problem;
  }
}

/**
 * A user's call was refused because the user's authorization is gone (revoked in the wallet,
 * expired, or never given), or the vault holds no usable token for the user. The user must log in
 * again: send them to `loginUrl` (a login bound to this user, which `completeLogin` finishes), or
 * start one with `vault.reconnect(userEmail)`. The vault has already forgotten the refused token.
 *
 * It is a {@link WalletApiError}, so code written for those keeps working; `status` is 0 and `sent`
 * false when the vault had no usable token and the call was not sent. `endpoint` is always the
 * call's own (`deposit`, `providers`).
 */
export class WalletReauthorizationRequiredError extends WalletApiError {
  /** Always `'WalletReauthorizationRequiredError'`. */
  override readonly name = 'WalletReauthorizationRequiredError' as const;
  /** The user who must authorize again. */
  readonly userEmail: string;
  /**
   * A login URL for this user, when the vault has `login` settings: its redirect carries a one-time
   * `state` bound to the user (`account` and `expectedEmail` are the user's e-mail), so
   * `completeLogin(state, { client })` on your redirect page makes the new token current.
   */
  readonly loginUrl: string | undefined;
  /** Whether the call was sent: `false` when the vault held no usable token for the user. */
  readonly sent: boolean;

  constructor(init: {
    userEmail: string;
    loginUrl: string | undefined;
    endpoint: WalletEndpoint;
    refusal: WalletApiError | undefined;
  }) {
    const { refusal, endpoint } = init;
    const code = refusal?.code ?? ('authorization_token_not_found' as WalletApiErrorCode);
    const status = refusal?.status ?? 0;
    super({
      code,
      message: '',
      status,
      endpoint,
      requestId: refusal?.requestId,
      body: refusal?.body,
      retryAfterMs: undefined,
    });
    const why = refusal
      ? `${serviceMessage(refusal)} (${code}, HTTP ${status} from ${endpoint})`
      : `the vault holds no usable token for this user, so nothing was sent to ${endpoint} (${code})`;
    this.message = `${init.userEmail} must authorize this application again: ${why}`;
    this.userEmail = init.userEmail;
    this.loginUrl = init.loginUrl;
    this.sent = refusal !== undefined;
    if (refusal) Object.defineProperty(this, 'cause', { value: refusal, enumerable: false, writable: true });
  }
}

/** The service's own words of `refusal`, without the `(code, HTTP status from endpoint)` its message ends with. */
function serviceMessage(refusal: WalletApiError): string {
  const suffix = ` (${refusal.code}, HTTP ${refusal.status} from ${refusal.endpoint})`;
  return refusal.message.endsWith(suffix) ? refusal.message.slice(0, -suffix.length) : refusal.message;
}

/**
 * Whether `error` says the user must log in again (a {@link WalletReauthorizationRequiredError}),
 * across builds and realms.
 *
 * @example
 * try {
 *   await wallet.deposit(body, { user: 'ada@example.com' });
 * } catch (error) {
 *   if (isReauthorizationRequired(error)) console.log('reconnect at', error.loginUrl);
 * }
 */
export function isReauthorizationRequired(error: unknown): error is WalletReauthorizationRequiredError {
  return error instanceof WalletError && error.name === 'WalletReauthorizationRequiredError';
}
