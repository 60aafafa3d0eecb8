import { type WalletIssue, WalletRequestValidationError } from '../errors.js';
import {
  CREDENTIAL,
  isAbortSignal,
  isPositiveMs,
  isRetryCount,
  MAX_RETRIES,
  MAX_TIMER_MS,
  POSITIVE_MS,
} from '../limits.js';
import { type OptionKeys, unknownOptionKeys } from '../option-keys.js';
import { checkHeaders } from './headers.js';

/** Per-call options of every method. */
export interface RequestOptions {
  /** Stops the call; a money-moving call stopped after sending ends in `WalletOutcomeUnknownError`. */
  signal?: AbortSignal | undefined;
  /** Time limit of each attempt for this call, overriding the client's `timeoutMs`. */
  timeoutMs?: number | undefined;
  /** Retries after the first attempt for this call, overriding the client's `maxRetries` (0 to 10). */
  maxRetries?: number | undefined;
  /**
   * Extra headers for this call, over the client's `headers`; the same names are refused (with a
   * `WalletRequestValidationError`): `x-api-key`, `authorization`, `content-type`, `content-length`,
   * `transfer-encoding`, `host`, `connection`.
   * @example { 'x-correlation-id': orderId }
   */
  headers?: Record<string, string> | undefined;
}

/** Per-call options of `getTransaction`, beyond {@link RequestOptions}. */
export interface StatusReadOptions extends RequestOptions {
  /**
   * Why the status is read: `'webhook'` when a webhook handler reads a delivery's transaction back
   * to verify it (`createWebhookHandler` with `verifyWith` says so), so the journal records a
   * payment this read settles as settled by webhook, and `journalHealth()` can tell when webhooks
   * stop arriving. Any other read is recorded as a status read.
   */
  readFor?: 'webhook' | undefined;
}

/** Per-call options of deposits and withdrawals, beyond {@link RequestOptions}. */
export interface PaymentOptions {
  /**
   * Your own labels for the payment, kept in the journal with its intent (never sent to the
   * service): at most 20 keys of at most 40 characters, each a string of at most 500.
   * @example { orderId: order.id }
   */
  metadata?: Readonly<Record<string, string>> | undefined;
}

/**
 * Per-call options of the methods that act for a user (`deposit`, `listProviders`): the user's
 * token, or the user's e-mail when the client has a token vault (`tokens`).
 */
export type UserRequestOptions = RequestOptions &
  (
    | {
        /** The user token delivered to your webhook by the login flow, sent as `Authorization: Bearer`. */
        userToken: string;
        /** Not with `userToken`. */
        user?: undefined;
      }
    | {
        /** The user's wallet e-mail: the client takes the user's token from its `tokens` vault. */
        user: string;
        /** Not with `user`. */
        userToken?: undefined;
      }
  );

/** Per-call options of `deposit`: the user, and the payment's metadata. */
export type DepositOptions = UserRequestOptions & PaymentOptions;

/** Per-call options of `withdraw`. */
export type WithdrawOptions = RequestOptions & PaymentOptions;

/** Every per-call option (`userToken` is read separately by the methods that act for a user). */
const REQUEST_OPTION_KEYS: OptionKeys<
  StatusReadOptions & PaymentOptions & { userToken: string; user: string }
> = {
  signal: true,
  timeoutMs: true,
  maxRetries: true,
  headers: true,
  userToken: true,
  user: true,
  metadata: true,
  readFor: true,
};

/** Per-call options once checked; `headers` have lower-case names. */
export interface CheckedRequestOptions {
  readonly signal: AbortSignal | undefined;
  readonly timeoutMs: number | undefined;
  readonly maxRetries: number | undefined;
  readonly headers: Readonly<Record<string, string>> | undefined;
}

/** The checked options of a call that sets none; one object, so the client can tell it apart. */
export const NO_OPTIONS: CheckedRequestOptions = Object.freeze({
  signal: undefined,
  timeoutMs: undefined,
  maxRetries: undefined,
  headers: undefined,
});

/** Refuses unknown keys and bad values of per-call options, naming each. */
export function checkRequestOptions(
  options: (StatusReadOptions & PaymentOptions) | undefined,
  payment = false,
): CheckedRequestOptions {
  if (options === undefined) return NO_OPTIONS;
  if (typeof options !== 'object' || options === null) {
    throw new WalletRequestValidationError([{ path: 'options', message: 'must be an object' }]);
  }
  if (setsNothing(options)) return NO_OPTIONS;
  const issues: WalletIssue[] = unknownOptionKeys(options, REQUEST_OPTION_KEYS).map((key) => ({
    path: `options.${key}`,
    message: 'is not a known option',
  }));
  const { signal, timeoutMs, maxRetries } = options;
  if (!payment && options.metadata !== undefined) {
    issues.push({ path: 'options.metadata', message: 'applies to deposits and withdrawals only' });
  }
  if (options.readFor !== undefined && options.readFor !== 'webhook') {
    issues.push({ path: 'options.readFor', message: "must be 'webhook'" });
  }
  if (signal !== undefined && !isAbortSignal(signal)) {
    issues.push({ path: 'options.signal', message: 'must be an AbortSignal' });
  }
  if (timeoutMs !== undefined && !isPositiveMs(timeoutMs, MAX_TIMER_MS)) {
    issues.push({ path: 'options.timeoutMs', message: POSITIVE_MS });
  }
  if (maxRetries !== undefined && !isRetryCount(maxRetries)) {
    issues.push({ path: 'options.maxRetries', message: `must be an integer from 0 to ${MAX_RETRIES}` });
  }
  const headers =
    options.headers === undefined ? undefined : checkHeaders(options.headers, 'options.headers', issues);
  if (issues.length > 0) throw new WalletRequestValidationError(issues);
  return { signal, timeoutMs, maxRetries, headers };
}

/** Whether `options` has no enumerable key, own or inherited: the `{}` most calls pass. */
function setsNothing(options: object): boolean {
  for (const _ in options) return false;
  return true;
}

/** The `userToken` of a call that acts for a user, or a validation error naming it. */
export function requireUserToken(options: { userToken?: string | undefined } | undefined): string {
  const token = options?.userToken;
  if (token === undefined || token === '') {
    throw new WalletRequestValidationError([
      { path: 'options.userToken', message: 'is required for this endpoint' },
    ]);
  }
  if (typeof token !== 'string' || !CREDENTIAL.test(token)) {
    throw new WalletRequestValidationError([
      { path: 'options.userToken', message: 'must be a string of visible ASCII characters with no spaces' },
    ]);
  }
  return token;
}
