import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createTransactionEvents,
  createWebhookHandler,
  type TransactionEvents,
  toNodeHandler,
  type WebhookHandlerOptions,
} from '../../index.js';
import { createInbox, type Inbox } from './inbox.js';

/** The merchant's side of the demo: a webhook endpoint and the page the login flow returns to. */
export interface MerchantApp {
  /** Where the wallet service posts webhooks (register it as the auth and deposit webhook URL). */
  readonly webhookUrl: string;
  /** Where the login page sends the user back (`redirect_url`). */
  readonly returnUrl: string;
  /** Every event the webhook endpoint accepted, with waits that need no sleeps. */
  readonly inbox: Inbox;
  /** Each transaction webhook as it is accepted, for `waitForTransaction`'s `events` option. */
  readonly transactionEvents: TransactionEvents;
  close(): Promise<void>;
}

const RETURN_PATH = '/wallet/connected';

function returnPage(req: IncomingMessage, res: ServerResponse): void {
  const denied =
    new URL(req.url ?? '/', 'http://merchant.local').searchParams.get('error') === 'access_denied';
  const message = denied ? 'You did not connect your wallet.' : 'Your wallet is connected.';
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(
    `<!doctype html><html lang="en"><title>Demo Shop</title><h1>Demo Shop</h1><p>${message}</p></html>`,
  );
}

/**
 * Starts the merchant app on a free loopback port. Webhooks go through the SDK's
 * `createWebhookHandler`, so with `verifyWith` each transaction event is read back from the
 * status endpoint before it is trusted (the service does not sign webhooks).
 */
export async function startMerchantApp(
  options: Pick<WebhookHandlerOptions, 'verifyWith'> = {},
): Promise<MerchantApp> {
  const inbox = createInbox();
  const transactionEvents = createTransactionEvents();
  const webhooks = toNodeHandler(
    createWebhookHandler({
      ...options,
      onUserAuthorized: (event) => inbox.add({ event, verified: false }),
      onTransaction: (event, context) => {
        inbox.add(
          context.verified ? { event, verified: true, status: context.status } : { event, verified: false },
        );
        transactionEvents.publish(event, context);
      },
    }),
  );
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'POST' && path === '/webhooks') return void webhooks(req, res);
    if (req.method === 'GET' && path === RETURN_PATH) return returnPage(req, res);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    webhookUrl: `${origin}/webhooks`,
    returnUrl: `${origin}${RETURN_PATH}`,
    inbox,
    transactionEvents,
    close: () =>
      new Promise((resolve) => {
        inbox.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
