import { WalletConfigError, type WalletIssue } from '../errors.js';
import { buildLoginUrl, WalletLoginUrlError } from '../login.js';
import { type OptionKeys, unknownOptionKeys } from '../option-keys.js';

/** Where the vault's login URLs point: the service's login page and your redirect. */
export interface VaultLoginSettings {
  /** `{auth_url}` of the service. */
  authUrl: string | URL;
  /** Where users land after logging in: your page that calls `completeLogin`. */
  redirectUrl: string | URL;
  /** Hosts a redirect URL may point at (see `buildLoginUrl`). */
  allowedRedirectHosts?: readonly string[] | undefined;
}

/** The login URL for a redirect URL, the settings' own `redirectUrl` by default. */
export type LoginUrlBuilder = (redirectUrl?: string | URL) => string;

/** Every key of {@link VaultLoginSettings}: a key given but not listed here is refused. */
const LOGIN_SETTING_KEYS: OptionKeys<VaultLoginSettings> = {
  authUrl: true,
  redirectUrl: true,
  allowedRedirectHosts: true,
};

/**
 * The login URL builder of the vault option `login`, or `undefined` when it is left out. It builds
 * one URL at once, so bad settings fail when the vault is made rather than on a user's payment.
 * @throws {WalletConfigError} naming `login` when it is not an object, and `login.<field>` for each
 *   unknown or unusable field (every one found).
 */
export function loginUrlBuilder(login: unknown, appId: string): LoginUrlBuilder | undefined {
  if (login === undefined) return undefined;
  if (typeof login !== 'object' || login === null || Array.isArray(login)) {
    throw new WalletConfigError(
      'login',
      'must be an object { authUrl, redirectUrl, allowedRedirectHosts? }, or left out for a vault without logins',
    );
  }
  const settings = login as VaultLoginSettings;
  const build: LoginUrlBuilder = (redirectUrl = settings.redirectUrl) =>
    buildLoginUrl({
      authUrl: settings.authUrl,
      appId,
      redirectUrl,
      ...(settings.allowedRedirectHosts && { allowedRedirectHosts: settings.allowedRedirectHosts }),
    });
  const issues: WalletIssue[] = unknownOptionKeys(settings, LOGIN_SETTING_KEYS).map((key) => ({
    path: `login.${key}`,
    message: 'is not a login setting (authUrl, redirectUrl, allowedRedirectHosts)',
  }));
  try {
    build();
  } catch (error) {
    if (!(error instanceof WalletLoginUrlError)) throw error;
    issues.push(issueOf(error));
  }
  if (issues.length > 0) throw new WalletConfigError(issues, 'Invalid login settings');
  return build;
}

/** The issue of a `buildLoginUrl` refusal, named by the vault option it came from. */
function issueOf(error: WalletLoginUrlError): WalletIssue {
  const message = error.message.slice(error.field.length + 1);
  return { path: error.field === 'appId' ? 'appId' : `login.${error.field}`, message };
}
