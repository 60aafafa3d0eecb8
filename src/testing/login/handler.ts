import { isHttpUrl } from '../../limits.js';
import {
  errorResponse,
  htmlResponse,
  redirectResponse,
  type SandboxHttpRequest,
  type SandboxHttpResponse,
} from '../http/response.js';
import { emailKey, type MerchantRecord } from '../model/state.js';
import type { SandboxInternals } from '../sandbox.js';
import type { Sandbox } from '../sandbox-types.js';
import { renderErrorPage, renderLandingPage, renderLoginPage } from './page.js';

/** The query parameter added to `redirect_url` when the user denies access. */
export const ACCESS_DENIED_PARAM: {
  /** The parameter's name. */
  readonly name: 'error';
  /** Its value. */
  readonly value: 'access_denied';
} = { name: 'error', value: 'access_denied' };

/**
 * The path, under the auth URL, of the sandbox's own landing page: a `redirect_url` that always
 * exists, for a login started without an app (the CLI banner's login page URL uses it).
 */
export const SANDBOX_LANDING_PATH = '/connected';

/** How long an approval waits for the `user_authorized` delivery before redirecting anyway. */
const WEBHOOK_WAIT_MS = 10_000;

function errorPage(status: number, title: string, message: string): SandboxHttpResponse {
  return htmlResponse(status, renderErrorPage(title, message));
}

/** The merchant and redirect URL named by a login request, or the 400 page explaining what is wrong. */
function readTarget(
  internals: SandboxInternals,
  params: URLSearchParams,
): { merchant: MerchantRecord; redirectUrl: string } | SandboxHttpResponse {
  const appId = params.get('app_id');
  const redirectUrl = params.get('redirect_url');
  const merchant = appId ? internals.ctx.state.merchantsByApp.get(appId) : undefined;
  if (!merchant)
    return errorPage(400, 'Unknown application', 'The app_id of this link names no application.');
  if (!redirectUrl) return errorPage(400, 'Invalid link', 'The link has no redirect_url.');
  if (!isHttpUrl(redirectUrl)) {
    return errorPage(400, 'Invalid link', 'The redirect_url of this link is not an absolute http(s) URL.');
  }
  return { merchant, redirectUrl };
}

function waitAtMost(promise: Promise<unknown> | undefined, ms: number): Promise<unknown> {
  if (!promise) return Promise.resolve();
  return Promise.race([promise, new Promise((resolve) => setTimeout(resolve, ms).unref())]);
}

async function handleDecision(
  internals: SandboxInternals,
  action: string,
  request: SandboxHttpRequest,
): Promise<SandboxHttpResponse> {
  const mediaType = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'application/x-www-form-urlencoded') {
    return errorPage(
      415,
      'Unsupported form',
      'The form must be posted as application/x-www-form-urlencoded.',
    );
  }
  const form = new URLSearchParams(new TextDecoder().decode(request.body));
  const target = readTarget(internals, form);
  if ('kind' in target) return target;
  const { merchant, redirectUrl } = target;
  const decision = form.get('decision');
  if (decision === 'deny') {
    const url = new URL(redirectUrl);
    url.searchParams.set(ACCESS_DENIED_PARAM.name, ACCESS_DENIED_PARAM.value);
    return redirectResponse(url.href);
  }
  const email = form.get('email')?.trim() ?? '';
  const page = (error: string) =>
    htmlResponse(
      400,
      renderLoginPage({
        merchantName: merchant.name,
        appId: merchant.appId,
        redirectUrl,
        action,
        error,
        email,
      }),
    );
  if (decision !== 'approve') return page('Choose Approve or Deny.');
  if (!internals.ctx.state.users.has(emailKey(email)))
    return page('No wallet account has that e-mail address.');
  const { delivery } = internals.authorizeAndNotify(email, merchant.appId);
  // The merchant's page at redirect_url usually needs the token already, so the webhook goes first.
  await waitAtMost(delivery, WEBHOOK_WAIT_MS);
  return redirectResponse(redirectUrl);
}

/** Handles requests under the auth URL: the login page and its form. */
export async function handleLoginRequest(
  sandbox: Sandbox,
  internals: SandboxInternals,
  path: string,
  url: URL,
  request: SandboxHttpRequest,
  authUrl: URL,
): Promise<SandboxHttpResponse> {
  if (path === SANDBOX_LANDING_PATH && request.method === 'GET') {
    const denied = url.searchParams.get(ACCESS_DENIED_PARAM.name) === ACCESS_DENIED_PARAM.value;
    return htmlResponse(200, renderLandingPage(denied));
  }
  if (path !== '/login') return errorResponse(sandbox.errorShape, 'not_found', undefined);
  const action = `${authUrl.pathname.replace(/\/+$/, '')}/login`;
  if (request.method === 'GET') {
    const target = readTarget(internals, url.searchParams);
    if ('kind' in target) return target;
    return htmlResponse(
      200,
      renderLoginPage({
        merchantName: target.merchant.name,
        appId: target.merchant.appId,
        redirectUrl: target.redirectUrl,
        action,
      }),
    );
  }
  if (request.method === 'POST') {
    if (request.body.byteLength > sandbox.maxBodyBytes)
      return errorPage(413, 'Too large', 'The form is too large.');
    return handleDecision(internals, action, request);
  }
  return htmlResponse(405, renderErrorPage('Method not allowed', 'Use GET to open the login page.'), {
    allow: 'GET, POST',
  });
}
