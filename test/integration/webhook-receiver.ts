import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebhookHandler, toNodeHandler, type WebhookHandlerOptions } from '../../src/webhooks/index.js';

/** The SDK's webhook handler served over `node:http` on a free loopback port. */
export interface WebhookReceiver {
  readonly url: string;
  close(): Promise<void>;
}

/** Starts `createWebhookHandler(options)` behind `toNodeHandler`, as a merchant would. */
export async function startWebhookReceiver(options: WebhookHandlerOptions): Promise<WebhookReceiver> {
  const handle = toNodeHandler(createWebhookHandler(options));
  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/wallet/webhooks`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
