import type { WalletEndpoint } from '../../error-codes.js';
import type { Outcome } from '../model/context.js';
import type { SandboxInternals } from '../sandbox.js';
import type { Sandbox } from '../sandbox-types.js';
import type { FaultAction } from './faults.js';
import type { SandboxHttpRequest } from './response.js';
import { errorResponse, jsonResponse, type SandboxHttpResponse } from './response.js';

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
 * Answers one request to an API route: any fault that fires for it, the body
 * size bound, then `apply` (the route's rules) turned into an HTTP answer.
 * The route names double as the endpoint names of the spec's message table.
 */
export async function answerApiRequest(
  sandbox: Sandbox,
  internals: SandboxInternals,
  route: WalletEndpoint,
  request: SandboxHttpRequest,
  requestHeaders: Record<string, string>,
  apply: () => Outcome,
): Promise<SandboxHttpResponse> {
  const fault = internals.faults.take(route);
  if (fault?.kind === 'latency') await delay(fault.ms);
  if (fault?.kind === 'drop-before') return { kind: 'drop' };
  const injected = fault && faultResponse(sandbox, route, fault, requestHeaders);
  if (injected) return injected;
  if (request.body.byteLength > sandbox.maxBodyBytes) {
    return errorResponse(sandbox.errorShape, 'payload_too_large', route, requestHeaders);
  }
  const outcome = apply();
  const response = outcome.ok
    ? jsonResponse(200, outcome.body, requestHeaders)
    : errorResponse(sandbox.errorShape, outcome.code, route, requestHeaders);
  if (fault?.kind === 'drop-after') return { kind: 'drop' };
  if (fault?.kind === 'reset-mid-body' && response.kind === 'respond') {
    return { ...response, resetAfterBytes: Math.floor(Buffer.byteLength(response.body) / 2) };
  }
  return response;
}
