// This entry must stay import-free: web apps bundle it on its own, within 1 KB min+gz.

/** The `buildLoginUrl` parameter a {@link WalletLoginUrlError} is about. */
export type LoginUrlField = 'options' | 'authUrl' | 'appId' | 'redirectUrl' | 'allowedRedirectHosts';

/**
 * `buildLoginUrl` was given a parameter it cannot use. `field` names it and the
 * message says what is wrong. The message never repeats a URL, so credentials
 * that were wrongly put in one do not end up in logs.
 *
 * `err instanceof WalletError` holds for it, although this entry does not import `WalletError`.
 */
export class WalletLoginUrlError extends Error {
  /** Always `'WalletLoginUrlError'`. */
  override readonly name = 'WalletLoginUrlError' as const;
  /** The parameter at fault. */
  readonly field: LoginUrlField;

  constructor(field: LoginUrlField, problem: string) {
    super(`${field} ${problem}`);
    this.field = field;
    // The brand `WalletError[Symbol.hasInstance]` checks; set here since WalletError cannot be imported.
    Object.defineProperty(this, Symbol.for('merchant-wallet.error'), { value: true });
  }
}

/** Parameters of {@link buildLoginUrl}. */
export interface LoginUrlOptions {
  /**
   * `{auth_url}` of the service. A path in it is kept (`https://auth.example.com/wallet` →
   * `https://auth.example.com/wallet/login`); a query or fragment is rejected rather than
   * silently dropped.
   */
  authUrl: string | URL;
  /** The application identifier assigned at registration. Must not be blank. */
  appId: string;
  /** Where the user lands after logging in. Sent in its normalized (WHATWG `href`) form. */
  redirectUrl: string | URL;
  /**
   * Hosts the redirect URL may point at, matched exactly and case-insensitively.
   * `shop.example.com` matches that host on any port; `shop.example.com:8443` only on that
   * port (an absent port counts as 443 for https, 80 for http). `*.example.com` matches every
   * subdomain at any depth, but not `example.com` itself. Omit it to allow any host.
   */
  allowedRedirectHosts?: readonly string[];
}

function fail(field: LoginUrlField, problem: string): never {
  throw new WalletLoginUrlError(field, problem);
}

// try/catch rather than URL.canParse, which older browsers lack.
function toUrl(value: unknown): URL | undefined {
  try {
    return typeof value === 'string' || value instanceof URL ? new URL(value) : undefined;
  } catch {
    return undefined;
  }
}

function parseHttpUrl(field: LoginUrlField, value: unknown): URL {
  const url = toUrl(value) ?? fail(field, 'must be an absolute URL');
  if (url.username || url.password) fail(field, 'must not contain credentials');
  const loopback = /^(localhost|127(\.\d+){3}|\[::1\])$/.test(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    fail(field, 'must use https (http only on loopback hosts)');
  }
  return url;
}

function isAllowedHost(url: URL, entry: unknown): boolean {
  const match =
    typeof entry === 'string' ? /^(\*\.)?([^*/?#@:[\]\s]+|\[[\da-f:.]+\])(?::(\d+))?$/i.exec(entry) : null;
  // Parsed as a URL host so case, IDN and IPv6 spellings compare the way the browser sees them.
  const host = toUrl(`http://${match?.[2]}`)?.hostname;
  if (!match || !host)
    return fail('allowedRedirectHosts', 'entries must be like "host", "host:port" or "*.domain"');
  const [, wildcard, , port] = match;
  const hostMatches = wildcard ? url.hostname.endsWith(`.${host}`) : url.hostname === host;
  return hostMatches && (!port || +port === +(url.port || (url.protocol === 'https:' ? 443 : 80)));
}

/**
 * Builds the address of the service's login page, `GET {authUrl}/login?app_id=…&redirect_url=…`,
 * to send the user's browser to. Both values are percent-encoded, so a redirect URL with
 * its own query and fragment arrives intact.
 *
 * Both URLs must use https, except on loopback hosts (`localhost`, `127.0.0.0/8`, `[::1]`)
 * where http is allowed for development. URLs with credentials are refused.
 *
 * @throws {WalletLoginUrlError} for any unusable parameter, wrong types included; never a `TypeError`.
 * @example
 * buildLoginUrl({
 *   authUrl: 'https://auth.wallet.example',
 *   appId: 'app_123',
 *   redirectUrl: 'https://shop.example.com/wallet/done?order=42',
 *   allowedRedirectHosts: ['shop.example.com'],
 * });
 * // 'https://auth.wallet.example/login?app_id=app_123&redirect_url=https%3A%2F%2Fshop.example.com%2Fwallet%2Fdone%3Forder%3D42'
 */
export function buildLoginUrl(options: LoginUrlOptions): string {
  if (typeof options !== 'object' || options === null) fail('options', 'must be an object');
  const { authUrl, appId, redirectUrl, allowedRedirectHosts: hosts } = options;
  const auth = parseHttpUrl('authUrl', authUrl);
  if (auth.search || auth.hash) fail('authUrl', 'must not have a query or fragment');
  if (typeof appId !== 'string' || !appId.trim()) fail('appId', 'must be a non-blank string');
  const redirect = parseHttpUrl('redirectUrl', redirectUrl);
  if (hosts !== undefined) {
    if (!Array.isArray(hosts) || !hosts.length) fail('allowedRedirectHosts', 'must be a non-empty array');
    // Every entry is checked, so a malformed one fails loudly even when an earlier one matches.
    if (!hosts.map((entry) => isAllowedHost(redirect, entry)).includes(true)) {
      fail('redirectUrl', `host "${redirect.host}" is not in allowedRedirectHosts`);
    }
  }
  let encodedAppId = '';
  try {
    encodedAppId = encodeURIComponent(appId);
  } catch {
    fail('appId', 'must be well-formed Unicode');
  }
  // encodeURIComponent rather than URLSearchParams: "%20" decodes the same for every server, "+" does not.
  return `${auth.href.replace(/\/+$/, '')}/login?app_id=${encodedAppId}&redirect_url=${encodeURIComponent(redirect.href)}`;
}
