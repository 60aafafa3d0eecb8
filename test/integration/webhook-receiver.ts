import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebhookHandler, toNodeHandler, type WebhookHandlerOptions } from '../../src/webhooks/index.js';

/** The SDK's webhook handler served over `node:http` on a free loopback port. */
export interface WebhookReceiver {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Set by scripts/openapi-prism.ts: a Prism proxy that checks each delivery against the document's
 * webhooks on its way from the sandbox to the receiver, whose port is the path's first segment.
 */
const WEBHOOK_PROXY_URL = process.env.MW_PRISM_WEBHOOK_PROXY_URL;

/** Starts `createWebhookHandler(options)` behind `toNodeHandler`, as a merchant would. */
export async function startWebhookReceiver(options: WebhookHandlerOptions): Promise<WebhookReceiver> {
  const handle = toNodeHandler(createWebhookHandler(options));
  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url:
      WEBHOOK_PROXY_URL === undefined
        ? `http://127.0.0.1:${port}/wallet/webhooks`
        : `${WEBHOOK_PROXY_URL}/${port}/wallet/webhooks`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
