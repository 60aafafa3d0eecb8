/**
 * Framework adapters of the webhook handler: `node:http` and Express (`toNodeHandler`), Fastify
 * (`fastifyWebhooks`), Hono (`toHonoHandler`), and `webRequestFrom` for any other server. Next.js
 * route handlers, Workers, Bun and Deno take the handler itself: it is a `Request` → `Response`
 * function. Its own entry, so the webhooks entry's budgeted size does not grow.
 *
 * @packageDocumentation
 * @module merchant-wallet/adapters
 */

export type {
  NodeHandlerOptions,
  NodeWebhookHandler,
  NodeWebhookRequest,
  NodeWebhookResponse,
} from '../node.js';
export { toNodeHandler } from '../node.js';
export type {
  FastifyWebhookInstance,
  FastifyWebhookReply,
  FastifyWebhookRequest,
  FastifyWebhooksOptions,
} from './fastify.js';
export { fastifyWebhooks } from './fastify.js';
export type { HonoWebhookContext } from './hono.js';
export { toHonoHandler } from './hono.js';
export type { RawWebhookRequest } from './web-request.js';
export { webRequestFrom } from './web-request.js';
