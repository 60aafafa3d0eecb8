import type { WalletEndpoint } from '../error-codes.js';
import { fail, type Outcome } from './context.js';
import { merchantFromApiKey, userFromBearer } from './credentials.js';
import { applyDeposit } from './deposit.js';
import type { FaultAction, SandboxRoute } from './faults.js';
import {
  errorResponse,
  jsonResponse,
  type SandboxHttpRequest,
  type SandboxHttpResponse,
} from './http-response.js';
import { listProviders, lookUpStatus } from './lookups.js';
import type { Sandbox, SandboxInternals } from './sandbox.js';
import { applyWithdraw } from './withdraw.js';

const decoder = new TextDecoder('utf-8', { fatal: true });

/** The JSON object body of a request, or why it cannot be read. */
function readJsonBody(request: SandboxHttpRequest): { json: Record<string, unknown> } | { failure: Outcome } {
  const mediaType = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json') return { failure: fail('unsupported_media_type') };
  try {
    const parsed: unknown = JSON.parse(decoder.decode(request.body));
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      return { json: parsed as Record<string, unknown> };
    }
  } catch {
    // Falls through: undecodable bytes and bad JSON get the same answer as a non-object.
  }
  return { failure: fail('invalid_json') };
}

/** Applies one API request to the sandbox's state. Credentials first, then the body, then the rules. */
function apply(
  internals: SandboxInternals,
  route: SandboxRoute,
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

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * An `error` fault stands for the service's own answer, so it carries a request id like one;
 * a `respond` fault sends exactly what it was given, as a proxy in front of the service would.
 */
function faultResponse(
  sandbox: Sandbox,
  route: WalletEndpoint,
  fault: FaultAction,
  requestHeaders: Record<string, string>,
): SandboxHttpResponse | undefined {
  if (fault.kind === 'error') return errorResponse(sandbox.errorShape, fault.code, route, requestHeaders);
  if (fault.kind !== 'respond') return undefined;
  if (typeof fault.body === 'string') {
    return {
      kind: 'respond',
      status: fault.status,
      headers: { 'content-type': 'text/plain; charset=utf-8', ...fault.headers },
      body: fault.body,
    };
  }
  return jsonResponse(fault.status, fault.body ?? {}, fault.headers);
}

/**
 * Handles one request to an API route, with any fault that fires for it.
 * The route names double as the endpoint names of the spec's message table.
 */
export async function handleApiRequest(
  sandbox: Sandbox,
  internals: SandboxInternals,
  route: SandboxRoute,
  transactionId: string,
  request: SandboxHttpRequest,
  requestHeaders: Record<string, string>,
): Promise<SandboxHttpResponse> {
  const fault = internals.faults.take(route);
  if (fault?.kind === 'latency') await delay(fault.ms);
  if (fault?.kind === 'drop-before') return { kind: 'drop' };
  const injected = fault && faultResponse(sandbox, route, fault, requestHeaders);
  if (injected) return injected;
  if (request.body.byteLength > sandbox.maxBodyBytes) {
    return errorResponse(sandbox.errorShape, 'payload_too_large', route, requestHeaders);
  }
  const outcome = apply(internals, route, transactionId, request);
  const response = outcome.ok
    ? jsonResponse(200, outcome.body, requestHeaders)
    : errorResponse(sandbox.errorShape, outcome.code, route, requestHeaders);
  if (fault?.kind === 'drop-after') return { kind: 'drop' };
  if (fault?.kind === 'reset-mid-body' && response.kind === 'respond') {
    return { ...response, resetAfterBytes: Math.floor(Buffer.byteLength(response.body) / 2) };
  }
  return response;
}
