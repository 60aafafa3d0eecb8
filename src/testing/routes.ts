import type { SandboxRoute } from './faults.js';

/** The API routes, relative to the base URL. `status` takes one more path segment, the transaction id. */
export const API_ROUTES = {
  deposit: { method: 'POST', path: '/merchants/transactions/c2b' },
  withdraw: { method: 'POST', path: '/merchants/transactions/b2c' },
  status: { method: 'GET', path: '/merchants/transactions/status/' },
  providers: { method: 'GET', path: '/merchants/accounts/providers' },
} as const satisfies Record<SandboxRoute, { method: string; path: string }>;

/** The two addresses a sandbox is served at. */
export interface SandboxUrls {
  /** The API base URL, e.g. `http://127.0.0.1:4010`. */
  baseUrl: string;
  /** The login page base URL, e.g. `http://127.0.0.1:4010/auth`. */
  authUrl: string;
}

/** Where a request goes. @internal */
export type Resolved =
  | { area: 'api'; route: SandboxRoute; transactionId: string }
  | { area: 'auth'; path: string }
  | { area: 'not-found' }
  | { area: 'wrong-method'; allow: string };

function under(url: URL, base: URL): string | undefined {
  if (url.origin !== base.origin) return undefined;
  const prefix = base.pathname.replace(/\/+$/, '');
  if (url.pathname === prefix) return '';
  return url.pathname.startsWith(`${prefix}/`) ? url.pathname.slice(prefix.length) : undefined;
}

/**
 * Maps a request to an API route or the login area. The auth URL is checked
 * first because it may sit under the base URL (the default `${origin}/auth`).
 */
export function resolveRoute(method: string, url: URL, urls: { base: URL; auth: URL }): Resolved {
  const authPath = under(url, urls.auth);
  if (authPath !== undefined) return { area: 'auth', path: authPath };
  const path = under(url, urls.base);
  if (path === undefined) return { area: 'not-found' };
  for (const [route, spec] of Object.entries(API_ROUTES) as [
    SandboxRoute,
    (typeof API_ROUTES)[SandboxRoute],
  ][]) {
    let transactionId = '';
    if (route === 'status') {
      if (!path.startsWith(spec.path)) continue;
      const segment = path.slice(spec.path.length);
      if (segment === '' || segment.includes('/')) continue;
      try {
        transactionId = decodeURIComponent(segment);
      } catch {
        // A malformed escape cannot name a transaction; the raw text will simply not be found.
        transactionId = segment;
      }
    } else if (path !== spec.path) {
      continue;
    }
    return method === spec.method
      ? { area: 'api', route, transactionId }
      : { area: 'wrong-method', allow: spec.method };
  }
  return { area: 'not-found' };
}
