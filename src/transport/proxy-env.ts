import { WalletConfigError } from '../errors.js';

/** The environment variables a proxy is read from (lowercase names win, as with curl). */
export type ProxyEnv = Readonly<Record<string, string | undefined>>;

/** The variables {@link proxyFor} reads, each also in upper case. */
const PROXY_VARIABLES = ['http_proxy', 'https_proxy', 'no_proxy'] as const;

/** A copy of the proxy variables of `env`, so that later changes to the environment do not reroute a client. */
export function proxyVariables(env: ProxyEnv): ProxyEnv {
  const copy: Record<string, string | undefined> = {};
  for (const name of PROXY_VARIABLES) {
    copy[name] = env[name];
    copy[name.toUpperCase()] = env[name.toUpperCase()];
  }
  return copy;
}

/**
 * The forward proxy that requests to `target` go through, from `https_proxy`/`HTTPS_PROXY` (https
 * targets) or `http_proxy`/`HTTP_PROXY` (http targets); `undefined` when none is set or `NO_PROXY`
 * exempts the host.
 * @throws {WalletConfigError} naming the variable when its value is not an http(s) URL, or its
 *   credentials are not valid percent-encoding.
 */
export function proxyFor(target: URL, env: ProxyEnv): URL | undefined {
  const lower = `${target.protocol.slice(0, -1)}_proxy`;
  const name = env[lower] ? lower : lower.toUpperCase();
  const value = env[name];
  if (!value || isExempt(target, env.no_proxy ?? env.NO_PROXY ?? '')) return undefined;
  // A bare host:port, which many tools accept, means a plain-http proxy.
  const text = /^\w+:\/\//.test(value) ? value : `http://${value}`;
  const proxy = URL.canParse(text) ? new URL(text) : undefined;
  if (!proxy?.hostname || !/^https?:$/.test(proxy.protocol)) {
    throw new WalletConfigError(name, 'must be a proxy URL such as http://proxy.internal:3128');
  }
  // Checked here, at construction, so sending never meets a URIError; the value is never quoted.
  if (!decodes(proxy.username) || !decodes(proxy.password)) {
    throw new WalletConfigError(name, 'has credentials that are not valid percent-encoding (write % as %25)');
  }
  return proxy;
}

function decodes(component: string): boolean {
  try {
    decodeURIComponent(component);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether `NO_PROXY` exempts `target`: entries split by commas or spaces; `*` exempts every host;
 * `example.com`, `.example.com` and `*.example.com` exempt that domain and its subdomains; an entry
 * with `:port` applies to that port only; IP addresses match exactly (IPv6 bare or in brackets).
 */
export function isExempt(target: URL, noProxy: string): boolean {
  const host = target.hostname.replace(/^\[|\]$/g, '');
  const port = target.port || (target.protocol === 'https:' ? '443' : '80');
  return noProxy.split(/[\s,]+/).some((entry) => {
    if (entry === '*') return true;
    // `host:port` or `[v6]:port`; a bare IPv6 address has several colons and no port.
    const [, bracketed, plain, entryPort] = /^(?:\[(.*)\]|([^:]*)):(\d+)$/.exec(entry) ?? [];
    const domain = (bracketed ?? plain ?? entry)
      .replace(/^\[|\]$/g, '')
      .replace(/^\*?\./, '')
      .toLowerCase();
    return (
      domain !== '' && (!entryPort || entryPort === port) && (host === domain || host.endsWith(`.${domain}`))
    );
  });
}
