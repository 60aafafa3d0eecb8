/** A JSON object, as the documents hold them. */
type Json = Record<string, unknown>;

/** The path a webhook takes through the webhook proxy: the receiver's port, then its path. */
export const WEBHOOK_PATH = '/{receiver_port}/wallet/webhooks';

/**
 * A document in which the API document's `webhooks` are the one operation of a receiver, so that
 * Prism's proxy, which checks paths and not `webhooks`, can check every delivery the sandbox makes
 * and every answer the SDK's handler gives. The bodies are the API document's own schemas.
 */
export function webhookReceiverDocument(api: Json): Json {
  const webhooks = api.webhooks as Record<string, { post: Json }>;
  const posts = Object.values(webhooks).map((webhook) => webhook.post);
  const bodies = posts.map(
    (post) =>
      (post.requestBody as { content: { 'application/json': { schema: Json } } }).content['application/json']
        .schema,
  );
  return {
    openapi: api.openapi,
    info: { ...(api.info as Json), title: `${(api.info as Json).title} (webhooks as a receiver's path)` },
    paths: {
      [WEBHOOK_PATH]: {
        post: {
          operationId: 'receiveWebhook',
          summary: 'A webhook delivery to the receiver listening on receiver_port',
          security: [],
          parameters: [{ name: 'receiver_port', in: 'path', required: true, schema: { type: 'integer' } }],
          requestBody: { required: true, content: { 'application/json': { schema: { oneOf: bodies } } } },
          responses: posts[0]?.responses,
        },
      },
    },
    components: api.components,
  };
}
