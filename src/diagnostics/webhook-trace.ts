import { tracingChannel } from './channel.js';

/**
 * What the `merchant-wallet:webhook` tracing channel publishes for each delivery a webhook handler
 * answers. The event fields are set once the body is parsed; `asyncEnd` adds `result`, the `Response`,
 * whose status says how it ended: 200 acknowledged (processed, a duplicate or ignored), 4xx refused
 * (not redelivered), 5xx failed (redelivered). Never carries the body, the user's e-mail or token.
 */
export interface WalletWebhookTrace {
  /** The HTTP method of the delivery. */
  readonly method: string;
  /** The event type, once the body was parsed. */
  type?: 'transaction' | 'user_authorized';
  /** The transaction of a transaction event. */
  transactionId?: string;
  /** The `reference_id` of a transaction event, when it has one. */
  referenceId?: string | undefined;
  /** The answer sent, once the handler resolved (set by `tracePromise`). */
  result?: Response;
}

const webhookChannel = tracingChannel('merchant-wallet:webhook');

/**
 * Wraps a webhook handler so each delivery is traced on `merchant-wallet:webhook` when anyone
 * listens; the context's `result` is then the `Response`. The handler gets the delivery's trace
 * (unpublished when nobody listens) to add the event to.
 */
export function traceWebhooks(
  handle: (request: Request, trace: WalletWebhookTrace) => Promise<Response>,
): (request: Request) => Promise<Response> {
  return (request) => {
    const trace: WalletWebhookTrace = { method: request.method };
    return webhookChannel?.hasSubscribers
      ? webhookChannel.tracePromise(() => handle(request, trace), trace)
      : handle(request, trace);
  };
}
