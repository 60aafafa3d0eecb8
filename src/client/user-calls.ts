import { normalizeEmail } from '../auth/email.js';
import type { UserCallContext, VaultLink } from '../auth/vault-link.js';
import { WalletRequestValidationError } from '../errors.js';
import type { UserRequestOptions } from './request-options.js';

/** A user's call, given the options with the user's token, and the user's e-mail when paid by `{ user }`. */
type UserCall<T> = (options: UserRequestOptions, userEmail: string | undefined) => Promise<T>;

/**
 * Runs `call` for the user `options` name: with its `userToken` as given, or, for `{ user }`, with
 * the token the vault holds for that e-mail (the vault promotes a candidate that works and turns a
 * refused token into a `WalletReauthorizationRequiredError`).
 * `context` names the call's endpoint and how the calling client checks a candidate token.
 * @throws {WalletRequestValidationError} for `user` with `userToken`, or `user` on a client without `tokens`.
 */
export function forUser<T>(
  tokens: VaultLink | undefined,
  options: Partial<UserRequestOptions> | undefined,
  call: UserCall<T>,
  context: UserCallContext,
): Promise<T> {
  if (options?.user === undefined) return call(options as UserRequestOptions, undefined);
  // The options without `user`: a copy that sets a key to `undefined` would cost V8 a slow object.
  const { user, ...rest } = options;
  const refuse = (message: string) => new WalletRequestValidationError([{ path: 'options.user', message }]);
  if (options.userToken !== undefined) throw refuse('cannot be given together with options.userToken');
  if (tokens === undefined) throw refuse('needs a client created with { tokens: vault }');
  const email = normalizeEmail(user, 'options.user');
  return tokens.withToken(email, context, (userToken) => call({ ...rest, userToken }, email));
}
