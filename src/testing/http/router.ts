import type { WalletEndpoint } from '../../error-codes.js';
import { WalletConfigError } from '../../errors.js';
import { isHttpUrl } from '../../limits.js';
import { handleLoginRequest } from '../login/handler.js';
import { fail, type Outcome } from '../model/context.js';
import { listProviders, lookUpStatus } from '../model/lookups.js';
import { merchantFromApiKey, userFromBearer } from '../rules/credentials.js';
import { applyDeposit } from '../rules/deposit.js';
import { applyWithdraw } from '../rules/withdraw.js';
import { type SandboxInternals, sandboxInternals } from '../sandbox.js';
import type { Sandbox } from '../sandbox-types.js';
import { answerApiRequest } from './api-exchange.js';
import { CONTROL_PREFIX, handleControlRequest } from './control.js';
import { readJsonBody } from './json-body.js';
import { answerDocumentRequest } from './openapi-route.js';
import { errorResponse, type SandboxHttpRequest, type SandboxHttpResponse } from './response.js';

/** Where one API route is served. */
export interface ApiRoute {
  /** The HTTP method. */
  readonly method: 'GET' | 'POST';
  /** The path relative to the base URL. */
  readonly path: string;
}

/** The API routes, relative to the base URL. `status` takes one more path segment, the transaction id. */
export const API_ROUTES: Readonly<Record<WalletEndpoint, ApiRoute>> = {
  deposit: { method: 'POST', path: '/merchants/transactions/c2b' },
  withdraw: { method: 'POST', path: '/merchants/transactions/b2c' },
  status: { method: 'GET', path: '/merchants/transactions/status/' },
  providers: { method: 'GET', path: '/merchants/accounts/providers' },
};

/** The two addresses a sandbox is served at. */
export interface SandboxUrls {
  /** The API base URL, e.g. `http://127.0.0.1:4010`. */
  baseUrl: string;
  /** The login page base URL, e.g. `http://127.0.0.1:4010/auth`. */
  authUrl: string;
}

/** Answers one request; both the node server and the msw handlers call it, so they cannot disagree. */
export type SandboxRequestHandler = (request: SandboxHttpRequest) => Promise<SandboxHttpResponse>;

/** Where a request goes. */
type Resolved =
  | { area: 'api'; route: WalletEndpoint; transactionId: string }
  | { area: 'auth'; path: string }
  | { area: 'control'; path: string }
  | { area: 'not-found' }
  | { area: 'wrong-method'; allow: string };

function under(url: URL, base: URL): string | undefined {
  if (url.origin !== base.origin) return undefined;
  const prefix = base.pathname.replace(/\/+$/, '');
  if (url.pathname === prefix) return '';
  return url.pathname.startsWith(`${prefix}/`) ? url.pathname.slice(prefix.length) : undefined;
}

/** The transaction id of a status path, or `undefined` when `path` is not one. */
function statusId(path: string): string | undefined {
  const prefix = API_ROUTES.status.path;
  if (!path.startsWith(prefix)) return undefined;
  const segment = path.slice(prefix.length);
  if (segment === '' || segment.includes('/')) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    // A malformed escape cannot name a transaction; the raw text will simply not be found.
    return segment;
  }
}

/**
 * Maps a request to an API route, the control API or the login area. The auth URL is checked
 * first because it may sit under the base URL (the default `${origin}/auth`).
 */
function resolveRoute(method: string, url: URL, urls: { base: URL; auth: URL }): Resolved {
  const authPath = under(url, urls.auth);
  if (authPath !== undefined) return { area: 'auth', path: authPath };
  const path = under(url, urls.base);
  if (path === undefined) return { area: 'not-found' };
  if (path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)) {
    return { area: 'control', path: path.slice(CONTROL_PREFIX.length) };
  }
  for (const route of Object.keys(API_ROUTES) as WalletEndpoint[]) {
    const spec = API_ROUTES[route];
    const transactionId = route === 'status' ? statusId(path) : path === spec.path ? '' : undefined;
    if (transactionId === undefined) continue;
    return method === spec.method
      ? { area: 'api', route, transactionId }
      : { area: 'wrong-method', allow: spec.method };
  }
  return { area: 'not-found' };
}

/** Applies one API request to the sandbox's state. Credentials first, then the body, then the rules. */
function applyRoute(
  internals: SandboxInternals,
  route: WalletEndpoint,
  id: string,
  request: SandboxHttpRequest,
): Outcome {
  const { state } = internals.ctx;
  const merchant = merchantFromApiKey(state, request.headers);
  if (!merchant.ok) return fail(merchant.code);
  if (route === 'status') return lookUpStatus(internals.ctx, merchant.value, id);
  if (route !== 'providers' && !merchant.value.active) return fail('merchant_not_active');
  if (route === 'providers' || route === 'deposit') {
    const user = userFromBearer(state, request.headers, merchant.value);
    if (!user.ok) return fail(user.code);
    if (route === 'providers') return listProviders(user.value);
    const body = readJsonBody(request);
    return 'failure' in body
      ? body.failure
      : applyDeposit(internals.ctx, merchant.value, user.value, body.json);
  }
  const body = readJsonBody(request);
  return 'failure' in body ? body.failure : applyWithdraw(internals.ctx, merchant.value, body.json);
}

function parseBase(value: unknown, field: string): URL {
  if (!isHttpUrl(value)) {
    throw new WalletConfigError(field, 'must be an absolute http(s) URL');
  }
  const url = new URL(value);
  if (url.search || url.hash) throw new WalletConfigError(field, 'must have no query or fragment');
  return url;
}

/**
 * The routing and handling of every sandbox request, independent of any HTTP
 * server: API routes under `baseUrl`, the login page under `authUrl`, the
 * control API under `${baseUrl}/_sandbox/`, JSON errors for everything else. It never throws; an unexpected failure becomes
 * a 500 `internal_server_error` answer.
 */
export function createSandboxRequestHandler(sandbox: Sandbox, urls: SandboxUrls): SandboxRequestHandler {
  const internals = sandboxInternals(sandbox);
  const base = parseBase(urls?.baseUrl, 'baseUrl');
  const auth = parseBase(urls?.authUrl, 'authUrl');
  if (base.href === auth.href) throw new WalletConfigError('authUrl', 'must differ from baseUrl');
  let requestCount = 0;

  return async (request) => {
    const requestHeaders = { 'x-request-id': `req_${String(++requestCount).padStart(6, '0')}` };
    try {
      const url = new URL(request.url);
      const path = under(url, base);
      const document =
        path === undefined ? undefined : await answerDocumentRequest(request.method, path, urls);
      if (document) return document;
      const target = resolveRoute(request.method, url, { base, auth });
      switch (target.area) {
        case 'api':
          return await answerApiRequest(sandbox, internals, target.route, request, requestHeaders, () =>
            applyRoute(internals, target.route, target.transactionId, request),
          );
        case 'auth':
          return await handleLoginRequest(sandbox, internals, target.path, url, request, auth);
        case 'control':
          return await handleControlRequest(sandbox, internals, target.path, request);
        case 'wrong-method':
          return errorResponse(sandbox.errorShape, 'method_not_allowed', undefined, {
            ...requestHeaders,
            allow: target.allow,
          });
        case 'not-found':
          return errorResponse(sandbox.errorShape, 'not_found', undefined, requestHeaders);
      }
    } catch {
      // Anything unexpected is the service's fault, and the client should see it as such rather than a hang.
      return errorResponse(sandbox.errorShape, 'internal_server_error', undefined, requestHeaders);
    }
  };
}
