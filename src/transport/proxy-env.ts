import { WalletConfigError } from '../errors.js';

/** The proxy variables, read the way curl and most HTTP clients read them. */
export interface ProxyEnv {
  readonly HTTPS_PROXY?: string | undefined;
  readonly https_proxy?: string | undefined;
  readonly HTTP_PROXY?: string | undefined;
  readonly http_proxy?: string | undefined;
  readonly NO_PROXY?: string | undefined;
  readonly no_proxy?: string | undefined;
}

/**
 * The forward proxy that requests to `target` go through, from `HTTPS_PROXY` (https targets) or
 * `HTTP_PROXY` (http targets), lowercase names first; `undefined` when none is set or `NO_PROXY`
 * exempts the host.
 * @throws {WalletConfigError} naming the variable when its value is not an http(s) URL.
 */
export function proxyFor(target: URL, env: ProxyEnv): URL | undefined {
  const [name, value] =
    target.protocol === 'https:'
      ? pick(env, 'https_proxy', 'HTTPS_PROXY')
      : pick(env, 'http_proxy', 'HTTP_PROXY');
  if (!value || isExempt(target, env.no_proxy ?? env.NO_PROXY ?? '')) return undefined;
  // A bare host:port, which many tools accept, means a plain-http proxy.
  const candidate = /^[a-z][a-z\d+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  const proxy = URL.canParse(candidate) ? new URL(candidate) : undefined;
  if (!proxy || (proxy.protocol !== 'http:' && proxy.protocol !== 'https:') || !proxy.hostname) {
    throw new WalletConfigError(name, 'must be a proxy URL such as http://proxy.internal:3128');
  }
  return proxy;
}

function pick(env: ProxyEnv, lower: keyof ProxyEnv, upper: keyof ProxyEnv): [string, string | undefined] {
  return env[lower] ? [lower, env[lower]] : [upper, env[upper]];
}

/**
 * Whether `NO_PROXY` exempts `target`: entries split by commas or spaces; `*` exempts every host;
 * `example.com` and `.example.com` exempt that domain and its subdomains; an entry with `:port`
 * applies to that port only; IP addresses match exactly.
 */
export function isExempt(target: URL, noProxy: string): boolean {
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  const port = target.port || (target.protocol === 'https:' ? '443' : '80');
  return noProxy
    .split(/[\s,]+/)
    .filter(Boolean)
    .some((entry) => {
      if (entry === '*') return true;
      const [pattern = '', entryPort] = splitHostPort(entry);
      if (entryPort && entryPort !== port) return false;
      const domain = pattern.replace(/^\*?\./, '').toLowerCase();
      return host === domain || host.endsWith(`.${domain}`);
    });
}

/** `host:port`, `[v6]:port` or a bare host (a bare IPv6 address has several colons and no port). */
function splitHostPort(entry: string): [string, string | undefined] {
  const bracketed = /^\[(.*)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return [bracketed[1] ?? '', bracketed[2]];
  const parts = entry.split(':');
  return parts.length === 2 && /^\d+$/.test(parts[1] ?? '') ? [parts[0] ?? '', parts[1]] : [entry, undefined];
}
