import { buildLoginUrl, WalletLoginUrlError } from '../../../index.js';
import { type CheckResult, type DoctorCheck, fail, pass, skip, warn } from '../check.js';

/** Stand-ins for the login URL's other parts when they are not set: only the redirect is judged. */
const PLACEHOLDER_AUTH_URL = 'https://auth.wallet.invalid';
const PLACEHOLDER_APP_ID = 'doctor';

/** The login redirect URL is one `buildLoginUrl` accepts, on an allowed host. */
export const loginRedirectCheck: DoctorCheck = {
  id: 'login-redirect',
  title: 'login redirect host allowed',
  async run({ config }): Promise<CheckResult> {
    const redirectUrl = config.loginRedirectUrl;
    if (redirectUrl === undefined) return skip('no login redirect URL is set (WALLET_LOGIN_REDIRECT_URL)');
    const hosts = config.allowedRedirectHosts;
    try {
      buildLoginUrl({
        authUrl: config.authUrl ?? PLACEHOLDER_AUTH_URL,
        appId: config.appId ?? PLACEHOLDER_APP_ID,
        redirectUrl,
        ...(hosts === undefined ? {} : { allowedRedirectHosts: hosts }),
      });
    } catch (error) {
      if (!(error instanceof WalletLoginUrlError)) throw error;
      const { field } = error;
      if (field === 'redirectUrl' && /not in allowedRedirectHosts/.test(error.message)) {
        return fail(
          'redirect_host_not_allowed',
          error.message,
          "add the redirect URL's host to WALLET_ALLOWED_REDIRECT_HOSTS, or correct the redirect URL",
        );
      }
      return fail(
        'login_url_invalid',
        error.message,
        field === 'authUrl'
          ? 'set WALLET_AUTH_URL to the https address of the login page'
          : 'use an https redirect URL (http only to this machine) without credentials',
      );
    }
    const host = new URL(redirectUrl).host;
    if (hosts === undefined) {
      return warn(
        'no_redirect_allow_list',
        `redirects to ${host}, but no allow-list is set`,
        'set WALLET_ALLOWED_REDIRECT_HOSTS (and allowedRedirectHosts in code) so a wrong redirect is refused before the user logs in',
      );
    }
    return pass(`redirects to ${host}, which the allow-list names`);
  },
};
