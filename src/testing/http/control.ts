import { timingSafeEqual } from 'node:crypto';
import { WalletConfigError } from '../../errors.js';
import { parseDuration } from '../model/clock.js';
import { SandboxNotFoundError } from '../rules/revoke.js';
import type { SandboxInternals } from '../sandbox.js';
import type { Sandbox } from '../sandbox-types.js';
import type { FaultSpec } from './faults.js';
import { jsonResponse, type SandboxHttpRequest, type SandboxHttpResponse } from './response.js';

/** The path prefix of the control API, under the base URL. */
export const CONTROL_PREFIX = '/_sandbox';

/** The header that carries the control key. */
export const CONTROL_KEY_HEADER = 'x-sandbox-key';

type Body = Record<string, unknown>;

/** One control operation: what it does with the sandbox, the path's `{id}` and the JSON body. @internal */
export interface ControlRoute {
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** The path after the prefix; `{id}` stands for one path segment. */
  readonly path: string;
  readonly run: (sandbox: Sandbox, id: string, body: Body) => unknown;
}

/** Every control operation, the one table docs/sandbox.md and the control API's OpenAPI document describe. @internal */
export const CONTROL_ROUTES: readonly ControlRoute[] = [
  {
    method: 'GET',
    path: '/ledger',
    run: (s) => ({ transactions: s.transactions(), balances: s.balances(), totals: s.totalMoney() }),
  },
  {
    method: 'POST',
    path: '/transactions/{id}/settle',
    run: (s, id, body) => ({
      transaction: s.settle(id, { status: 'completed', ...body, delivery: planOf(body.delivery) } as never),
    }),
  },
  { method: 'GET', path: '/webhooks', run: (s) => ({ deliveries: s.webhooks.deliveries() }) },
  {
    method: 'POST',
    path: '/webhooks/{id}/redeliver',
    run: (s, id, body) => ({
      delivery: s.webhooks.redeliver(id, planOf({ mode: 'deliver', ...body }) as never),
    }),
  },
  { method: 'GET', path: '/webhooks/retries', run: (s) => ({ retries: s.webhooks.retries() }) },
  {
    method: 'POST',
    path: '/webhooks/retries',
    run: (s, _id, body) => ({ retries: s.webhooks.setRetries(retriesOf(body) as never) }),
  },
  {
    method: 'POST',
    path: '/webhooks/forge',
    run: (s, _id, body) => ({ delivery: s.forge({ ...body, delivery: planOf(body.delivery) } as never) }),
  },
  {
    method: 'POST',
    path: '/certify',
    // Loaded on first use: a sandbox that is never asked to certify never loads the checks.
    run: async (s, _id, body) =>
      (await import('../certify/run.js')).certifyEndpoint(s, checkCertifyBody(body)),
  },
  {
    method: 'POST',
    path: '/webhooks/plan',
    run: (s, _id, body) => {
      s.webhooks.planNext(planOf(body) as never);
      return {};
    },
  },
  {
    method: 'POST',
    path: '/merchants/{id}',
    run: (s, id, body) => {
      s.updateMerchant(id, body);
      return {};
    },
  },
  {
    method: 'POST',
    path: '/balances',
    run: (s, _id, body) => {
      s.setBalance(body as never);
      return { balances: s.balances() };
    },
  },
  {
    method: 'POST',
    path: '/users',
    run: (s, _id, body) => {
      s.putUser(body as never);
      return {};
    },
  },
  {
    method: 'POST',
    path: '/tokens',
    run: (s, _id, body) => ({ token: s.authorize(body as never) }),
  },
  {
    method: 'POST',
    path: '/tokens/revoke',
    run: (s, _id, body) => s.revoke(body as never),
  },
  {
    method: 'POST',
    path: '/faults',
    run: (s, _id, body) => {
      s.faults.inject(withInfinity(body) as unknown as FaultSpec);
      return { pending: s.faults.pending };
    },
  },
  {
    method: 'DELETE',
    path: '/faults',
    run: (s) => {
      s.faults.clear();
      return { pending: 0 };
    },
  },
  { method: 'GET', path: '/clock', run: (s) => clockView(s) },
  {
    method: 'POST',
    path: '/clock/advance',
    run: (s, _id, body) => {
      const by = parseDuration(body.by, 'by');
      let ran: number;
      try {
        ran = s.clock.advance(by);
      } catch (error) {
        // `advance` names its parameter `ms`; the caller of this route wrote `by`.
        if (!(error instanceof WalletConfigError) || error.option !== 'ms') throw error;
        throw new WalletConfigError('by', error.message.slice('ms: '.length));
      }
      return { ...clockView(s), ran };
    },
  },
  {
    method: 'POST',
    path: '/reset',
    run: (s) => {
      s.reset();
      return {};
    },
  },
];

/** The control API's certify body: the URL, and optionally the merchant and timeout; never an effects function. */
function checkCertifyBody(body: Body) {
  const { url, appId, timeoutMs } = body as { url: string; appId?: string; timeoutMs?: number };
  return {
    url,
    ...(appId === undefined ? {} : { appId }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  };
}

function clockView(sandbox: Sandbox) {
  const { clock } = sandbox;
  return { now: clock.now().toISOString(), offset_ms: clock.offsetMs, pending: clock.pending };
}

/**
 * A delivery plan given as just its mode (`"twice"`) or in full, its delay in ms or as a
 * duration (`{"mode": "late", "delayMs": "30s"}`).
 */
function planOf(value: unknown): unknown {
  if (typeof value === 'string') return { mode: value };
  if (typeof value !== 'object' || value === null || !('delayMs' in value)) return value;
  return { ...value, delayMs: parseDuration(value.delayMs, 'delivery.delayMs') };
}

/** A retry policy whose waits may be durations (`{"schedule": ["1m", "1h"]}`), as the CLI sends them. */
function retriesOf(body: Body): Body {
  const { schedule, backoffMs } = body;
  return {
    ...body,
    ...(Array.isArray(schedule)
      ? { schedule: schedule.map((wait, index) => parseDuration(wait, `schedule.${index}`)) }
      : {}),
    ...(backoffMs === undefined ? {} : { backoffMs: parseDuration(backoffMs, 'backoffMs') }),
  };
}

/** JSON has no `Infinity`; `"Infinity"` (or `null`) for `times` means "until removed". */
function withInfinity(body: Body): Body {
  return body.times === 'Infinity' || body.times === null
    ? { ...body, times: Number.POSITIVE_INFINITY }
    : body;
}

function controlError(status: number, error: string, message: string): SandboxHttpResponse {
  return jsonResponse(status, { error, message });
}

function keyMatches(given: string | undefined, key: string): boolean {
  const a = Buffer.from(given ?? '');
  const b = Buffer.from(key);
  return a.byteLength === b.byteLength && timingSafeEqual(a, b);
}

function match(route: ControlRoute, path: string): string | undefined {
  const [before, after] = route.path.split('{id}');
  if (after === undefined) return path === before ? '' : undefined;
  if (!path.startsWith(before ?? '') || !path.endsWith(after)) return undefined;
  const segment = path.slice((before ?? '').length, path.length - after.length);
  if (segment === '' || segment.includes('/')) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function readBody(request: SandboxHttpRequest): Body {
  const text = new TextDecoder().decode(request.body).trim();
  if (text === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new WalletConfigError('body', 'must be JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new WalletConfigError('body', 'must be a JSON object');
  }
  return parsed as Body;
}

/**
 * Answers a request to the control API (`path` is what follows the prefix). Only with the
 * right `x-sandbox-key`; a sandbox without a control key answers 404, as if there were none.
 * A refused operation answers 400 with the `WalletConfigError` message, which names the field;
 * one naming a record the sandbox does not hold (`SandboxNotFoundError`) answers 404.
 */
export async function handleControlRequest(
  sandbox: Sandbox,
  internals: SandboxInternals,
  path: string,
  request: SandboxHttpRequest,
): Promise<SandboxHttpResponse> {
  const key = internals.controlKey;
  if (key === undefined) return controlError(404, 'not_found', 'the control API is off: no control key');
  // The UI's files hold no data (the page asks for the key and sends it), so they need none; loaded
  // only when asked for, so a sandbox nobody opens in a browser never loads them.
  if (path === '/ui' || path.startsWith('/ui/')) {
    const file = (await import('../ui/serve.js')).uiFile(request.method, path);
    if (file !== undefined) return file;
  }
  if (!keyMatches(request.headers[CONTROL_KEY_HEADER], key)) {
    return controlError(401, 'unauthorized', `send the control key in the ${CONTROL_KEY_HEADER} header`);
  }
  const candidates = CONTROL_ROUTES.filter((route) => match(route, path) !== undefined);
  const route = candidates.find((candidate) => candidate.method === request.method);
  if (!route) {
    return candidates.length === 0
      ? controlError(404, 'not_found', `no control operation at ${CONTROL_PREFIX}${path}`)
      : jsonResponse(
          405,
          { error: 'method_not_allowed', message: `use ${candidates.map((c) => c.method).join(' or ')}` },
          { allow: candidates.map((c) => c.method).join(', ') },
        );
  }
  if (request.body.byteLength > sandbox.maxBodyBytes) {
    return controlError(413, 'payload_too_large', `the body is over ${sandbox.maxBodyBytes} bytes`);
  }
  try {
    return jsonResponse(200, await route.run(sandbox, match(route, path) ?? '', readBody(request)));
  } catch (error) {
    if (error instanceof SandboxNotFoundError) return controlError(404, 'record_not_found', error.message);
    if (error instanceof WalletConfigError) return controlError(400, 'invalid_request', error.message);
    throw error;
  }
}
