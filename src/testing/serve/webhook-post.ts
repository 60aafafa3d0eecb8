import type { SandboxWebhookEvent } from '../model/transactions.js';
import type { WebhookAttempt } from './webhook-types.js';

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.name}: ${error.message}${cause}`;
}

/**
 * One HTTP attempt of a webhook: posts `event` as JSON (or `body`, a forgery's exact text, as it is)
 * and records what came back. Never throws.
 */
export async function postWebhook(
  url: string,
  event: SandboxWebhookEvent | string,
  at: Date,
  options: { signal: AbortSignal; timeoutMs: number },
): Promise<WebhookAttempt> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'merchant-wallet-sandbox' },
      body: typeof event === 'string' ? event : JSON.stringify(event),
      redirect: 'manual',
      signal: AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]),
    });
    // The body is drained so the connection can be reused or closed cleanly.
    await response.arrayBuffer().catch(() => undefined);
    return { at, status: response.status, error: undefined };
  } catch (error) {
    return { at, status: undefined, error: describeError(error) };
  }
}
