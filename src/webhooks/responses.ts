import type { WalletWebhookError } from './errors.js';

/** A small JSON response; every answer of the webhook endpoint is one. */
export function json(
  status: number,
  body: Record<string, unknown>,
  headers?: Record<string, string>,
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** 405 for anything but POST. */
export const methodNotAllowed = (): Response =>
  json(405, { error: 'method_not_allowed', message: 'Use POST' }, { allow: 'POST' });

/** 413 for a body over the limit, 400 for any other refused body: redelivering it cannot help. */
export const refused = (error: WalletWebhookError, headers?: Record<string, string>): Response =>
  json(error.reason === 'too_large' ? 413 : 400, { error: error.reason, message: error.message }, headers);

/** 5xx, so the service delivers the event again. */
export const retryLater = (status: 500 | 503, error: string, headers?: Record<string, string>): Response =>
  // Generic on purpose: the underlying error may quote secrets, and the sender only needs to retry.
  json(status, { error, message: 'Not processed; deliver it again later' }, headers);

/**
 * 503 `in_progress` with `Retry-After` (whole seconds, at least 1): another delivery of the event is
 * being processed. Not "duplicate": if that process dies, this redelivery is the one that counts.
 */
export const inProgress = (retryAfterMs: number): Response =>
  retryLater(503, 'in_progress', { 'retry-after': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) });
