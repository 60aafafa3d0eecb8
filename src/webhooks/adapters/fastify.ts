import { DEFAULT_WEBHOOK_MAX_BYTES } from '../body.js';
import { handlerLimits, type WebhookHandler } from '../handler.js';
import { webRequestFrom } from './web-request.js';

/** The parts of a Fastify request the adapter reads. Structural: the adapter loads no Fastify. */
export interface FastifyWebhookRequest {
  /** The request method; anything but POST is answered 405. */
  readonly method: string;
  /** The request target, path and query. */
  readonly url: string;
  /** The request headers, as Node gives them. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The body as the plugin's parser read it: bytes. */
  readonly body: unknown;
}

/** The parts of a Fastify reply the adapter writes. */
export interface FastifyWebhookReply {
  /** Sets the status of the endpoint's answer. */
  code(status: number): FastifyWebhookReply;
  /** Sets its headers. */
  headers(values: Record<string, string>): FastifyWebhookReply;
  /** Sends its body. */
  send(payload: Uint8Array): FastifyWebhookReply;
}

/** The parts of a Fastify instance the plugin uses. */
export interface FastifyWebhookInstance {
  /** Drops the body parsers inside the plugin's context (Fastify encapsulates it): the route reads bytes. */
  removeAllContentTypeParsers(): void;
  /** Reads every content type as bytes, up to the endpoint's size limit. */
  addContentTypeParser(
    contentType: string,
    options: { parseAs: 'buffer'; bodyLimit: number },
    parser: (request: unknown, body: Buffer, done: (error: Error | null, body?: unknown) => void) => void,
  ): void;
  /** Declares the webhook route. */
  route(route: {
    method: string[];
    url: string;
    bodyLimit: number;
    handler: (request: FastifyWebhookRequest, reply: FastifyWebhookReply) => Promise<FastifyWebhookReply>;
  }): unknown;
}

/** Options of {@link fastifyWebhooks}. */
export interface FastifyWebhooksOptions {
  /**
   * The route's path, under the prefix the plugin is registered with.
   * @default '/wallet/webhooks'
   */
  path?: string | undefined;
}

const METHODS = ['POST', 'GET', 'PUT', 'PATCH', 'DELETE'];

/**
 * A Fastify plugin that serves the webhook handler on one route with the raw body: inside the
 * plugin (Fastify encapsulates it) every content type is read as bytes, so the handler sees the
 * body as sent, under its own size limit (413 above it). Other methods are answered 405 by the handler.
 *
 * @example
 * import Fastify from 'fastify';
 *
 * const app = Fastify();
 * await app.register(fastifyWebhooks(wallet.webhooks)); // POST /wallet/webhooks
 */
export function fastifyWebhooks(
  handler: WebhookHandler,
  options: FastifyWebhooksOptions = {},
): (instance: FastifyWebhookInstance) => Promise<void> {
  const bodyLimit = handlerLimits.get(handler) ?? DEFAULT_WEBHOOK_MAX_BYTES;
  return async (instance) => {
    instance.removeAllContentTypeParsers();
    instance.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_request, body, done) =>
      done(null, body),
    );
    instance.route({
      method: METHODS,
      url: options.path ?? '/wallet/webhooks',
      bodyLimit,
      handler: async (request, reply) => {
        const body = request.body instanceof Uint8Array ? request.body : undefined;
        // Field by field: a Fastify request keeps them as getters, which a spread would miss.
        const { method, url, headers } = request;
        const response = await handler(webRequestFrom({ method, url, headers, body }));
        return reply
          .code(response.status)
          .headers(Object.fromEntries(response.headers))
          .send(new Uint8Array(await response.arrayBuffer()));
      },
    });
  };
}
