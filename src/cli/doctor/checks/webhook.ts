import { type CheckResult, type DoctorCheck, fail, pass, warn } from '../check.js';
import { displayUrl, httpUrl, isLoopback, originOf } from '../hosts.js';

/** What a webhook route answered, for one request. */
interface Answer {
  readonly status: number;
  readonly location: string | null;
  readonly allow: string | null;
  readonly text: string;
}

/** One request to the webhook URL, redirects not followed, until `signal`; `string` is the network error. */
async function request(
  fetch: typeof globalThis.fetch,
  url: string,
  method: 'POST' | 'GET',
  signal: AbortSignal,
): Promise<Answer | string> {
  try {
    const response = await fetch(url, {
      method,
      redirect: 'manual',
      signal,
      ...(method === 'POST' ? { headers: { 'content-type': 'application/json' }, body: '' } : {}),
    });
    // A little of the body, to tell a CSRF refusal from another 403.
    const text = (await response.text().catch(() => '')).slice(0, 2_000);
    return {
      status: response.status,
      location: response.headers.get('location'),
      allow: response.headers.get('allow'),
      text,
    };
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    const code = (cause as { code?: unknown } | undefined)?.code;
    return typeof code === 'string' ? code : error instanceof Error ? error.name : 'network error';
  }
}

const FIX_ROUTE =
  'declare the webhook route for POST, outside authentication and CSRF protection, and answer 400 to a body it cannot read';

/** What a refused POST means for the service's deliveries, and what to change. */
async function judge(
  answer: Answer,
  get: () => Promise<Answer | string>,
  where: string,
): Promise<CheckResult> {
  const { status } = answer;
  if (status === 400)
    return pass(`${where} answers 400 to an empty POST: the route exists and reads its body`);
  if (status === 404 || status === 405) {
    const other = await get();
    const getOnly = typeof other !== 'string' && other.status >= 200 && other.status < 300;
    if (
      getOnly ||
      (status === 405 && /\bGET\b/i.test(answer.allow ?? '') && !/\bPOST\b/i.test(answer.allow ?? ''))
    ) {
      return fail(
        'webhook_get_only',
        `${where} answers GET but not POST (${status} to a POST): the service posts its webhooks`,
        'declare the route for POST (app.post, not app.get)',
      );
    }
    return status === 404
      ? fail(
          'webhook_not_found',
          `${where} answers 404 to a POST: no route at this path`,
          'correct the path in the webhook URL, or mount the handler there',
        )
      : fail('webhook_method_not_allowed', `${where} answers 405 to a POST`, 'let the route accept POST');
  }
  if (status === 403) {
    return /csrf|xsrf|forgery/i.test(answer.text)
      ? fail(
          'webhook_csrf',
          `${where} answers 403 to a POST: CSRF protection refuses it`,
          'exempt the webhook route from CSRF protection: the service sends no CSRF token',
        )
      : fail(
          'webhook_forbidden',
          `${where} answers 403 to a POST`,
          'let unauthenticated POSTs reach the webhook route (an IP filter or a firewall rule may refuse them)',
        );
  }
  if (status === 401) {
    return fail(
      'webhook_unauthorized',
      `${where} answers 401 to a POST`,
      'take the webhook route out of authentication: the service sends no credentials',
    );
  }
  if (status >= 300 && status < 400) {
    const to = answer.location ?? '';
    return /log-?in|sign-?in|auth|session/i.test(to)
      ? fail(
          'webhook_login_redirect',
          `${where} answers ${status} to a POST, to a login page`,
          'take the webhook route out of authentication: the service follows no redirect and never logs in',
        )
      : fail(
          'webhook_redirect',
          `${where} answers ${status} to a POST (a redirect)`,
          'use the final URL (scheme, host, trailing slash) as the webhook URL: the service does not follow redirects',
        );
  }
  if (status >= 200 && status < 300) {
    return fail(
      'webhook_accepts_empty_body',
      `${where} answers ${status} to an empty POST`,
      'answer 400 to a body that is not a webhook: a 2xx tells the service the delivery was handled, and it stops retrying (a handler built with createWebhookHandler does)',
    );
  }
  return fail('webhook_server_error', `${where} answers ${status} to an empty POST`, FIX_ROUTE);
}

/** The webhook URL resolves and its route answers a POST of an empty body with 400. */
export const webhookCheck: DoctorCheck = {
  id: 'webhook-url',
  title: 'webhook URL answers POST',
  async run({ config, deps }): Promise<CheckResult> {
    if (config.webhookUrl === undefined) {
      return fail(
        'webhook_url_missing',
        'no webhook URL is set',
        'set WALLET_WEBHOOK_URL to the URL registered in the merchant portal',
      );
    }
    const url = httpUrl(config.webhookUrl);
    if (url === undefined) {
      return fail(
        'webhook_url_invalid',
        'the webhook URL is not an http(s) URL',
        'set WALLET_WEBHOOK_URL to an absolute https URL',
      );
    }
    const where = displayUrl(url);
    try {
      await deps.lookup(url.hostname.replace(/^\[|\]$/g, ''));
    } catch {
      return fail(
        'webhook_unresolvable',
        `${url.hostname} does not resolve`,
        'correct the host of the webhook URL, or publish its DNS record',
      );
    }
    // Both requests share one deadline, so the check keeps within its time limit.
    const deadline = AbortSignal.timeout(4_000);
    const answer = await request(deps.fetch, url.href, 'POST', deadline);
    if (typeof answer === 'string') {
      return fail(
        'webhook_unreachable',
        `cannot reach ${where} (${answer})`,
        'start the app, or open its port to the service (firewall, tunnel, load balancer)',
      );
    }
    const result = await judge(answer, () => request(deps.fetch, url.href, 'GET', deadline), where);
    if (result.status !== 'pass') return result;
    const api = httpUrl(config.baseUrl);
    if (isLoopback(url.hostname) && api !== undefined && !isLoopback(api.hostname)) {
      return warn(
        'webhook_not_public',
        `${where} is on this machine, which the service at ${originOf(api)} cannot reach`,
        'register a public https URL (or a tunnel) as the webhook URL',
      );
    }
    return result;
  },
};
