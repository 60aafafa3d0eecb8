import { WalletRequestValidationError } from '../errors.js';
import { isAbortSignal, MAX_TIMER_MS } from '../limits.js';
import { type OptionKeys, unknownOptionKeys } from '../option-keys.js';
import { CREDENTIAL } from './options.js';

/** Per-call options of every method. */
export interface RequestOptions {
  /** Stops the call; a money-moving call stopped after sending ends in `WalletOutcomeUnknownError`. */
  signal?: AbortSignal | undefined;
  /** Time limit of each attempt for this call, overriding the client's `timeoutMs`. */
  timeoutMs?: number | undefined;
}

/** Per-call options of the methods that act for a user (`deposit`, `listProviders`). */
export interface UserRequestOptions extends RequestOptions {
  /** The user token delivered to your webhook by the login flow, sent as `Authorization: Bearer`. */
  userToken: string;
}

/** Every per-call option (`userToken` is read separately by the methods that act for a user). */
const REQUEST_OPTION_KEYS: OptionKeys<UserRequestOptions> = {
  signal: true,
  timeoutMs: true,
  userToken: true,
};

/** Refuses unknown keys and bad values of per-call options, naming each. */
export function checkRequestOptions(options: RequestOptions | undefined): RequestOptions {
  if (options === undefined) return {};
  if (typeof options !== 'object' || options === null) {
    throw new WalletRequestValidationError([{ path: 'options', message: 'must be an object' }]);
  }
  const issues = unknownOptionKeys(options, REQUEST_OPTION_KEYS).map((key) => ({
    path: `options.${key}`,
    message: 'is not a known option',
  }));
  if (issues.length > 0) throw new WalletRequestValidationError(issues);
  const { signal, timeoutMs } = options;
  if (signal !== undefined && !isAbortSignal(signal)) {
    throw new WalletRequestValidationError([{ path: 'options.signal', message: 'must be an AbortSignal' }]);
  }
  if (
    timeoutMs !== undefined &&
    !(typeof timeoutMs === 'number' && timeoutMs > 0 && timeoutMs <= MAX_TIMER_MS)
  ) {
    throw new WalletRequestValidationError([
      { path: 'options.timeoutMs', message: 'must be a positive number of milliseconds' },
    ]);
  }
  return { signal, timeoutMs };
}

/** The `userToken` of a call that acts for a user, or a validation error naming it. */
export function requireUserToken(options: Partial<UserRequestOptions> | undefined): string {
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
