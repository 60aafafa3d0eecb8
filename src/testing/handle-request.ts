import { WalletConfigError } from '../errors.js';
import { handleApiRequest } from './api-handler.js';
import { errorResponse, type SandboxHttpRequest, type SandboxHttpResponse } from './http-response.js';
import { handleLoginRequest } from './login-handler.js';
import { resolveRoute, type SandboxUrls } from './routes.js';
import { type Sandbox, sandboxInternals } from './sandbox.js';

/** Answers one request; both the node server and the msw handlers call it, so they cannot disagree. */
export type SandboxRequestHandler = (request: SandboxHttpRequest) => Promise<SandboxHttpResponse>;

function parseBase(value: unknown, field: string): URL {
  if (typeof value !== 'string' || !URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) {
    throw new WalletConfigError(field, 'must be an absolute http(s) URL');
  }
  const url = new URL(value);
  if (url.search || url.hash) throw new WalletConfigError(field, 'must have no query or fragment');
  return url;
}

/**
 * The routing and handling of every sandbox request, independent of any HTTP
 * server: API routes under `baseUrl`, the login page under `authUrl`, JSON
 * errors for everything else. It never throws; an unexpected failure becomes
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
      const target = resolveRoute(request.method, url, { base, auth });
      switch (target.area) {
        case 'api':
          return await handleApiRequest(
            sandbox,
            internals,
            target.route,
            target.transactionId,
            request,
            requestHeaders,
          );
        case 'auth':
          return await handleLoginRequest(sandbox, internals, target.path, url, request, auth);
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
