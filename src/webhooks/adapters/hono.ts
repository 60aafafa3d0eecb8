import type { WebhookHandler } from '../handler.js';

/** The part of a Hono context the adapter reads: the raw `Request`, body unread. */
export interface HonoWebhookContext {
  /** Hono's request wrapper. */
  readonly req: {
    /** The web `Request` as it arrived, body unread. */
    readonly raw: Request;
  };
}

/**
 * The webhook handler as a Hono route handler. Hono hands routes the web `Request` itself, so the
 * body reaches the handler as sent, as long as no middleware before the route read it.
 *
 * @example
 * app.post('/wallet/webhooks', toHonoHandler(wallet.webhooks));
 */
export function toHonoHandler(handler: WebhookHandler): (context: HonoWebhookContext) => Promise<Response> {
  return (context) => handler(context.req.raw);
}
