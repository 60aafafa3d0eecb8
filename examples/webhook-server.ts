/**
 * A merchant webhook endpoint on `node:http`: it stores user tokens from `user_authorized` and
 * confirms each transaction webhook against the status endpoint before acting on it, since the
 * service does not sign webhooks.
 *
 * Run: npx tsx examples/webhook-server.ts
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebhookHandler, toNodeHandler, WalletClient } from 'merchant-wallet';
import { createSandbox, startSandboxServer } from 'merchant-wallet/testing';

const sandbox = createSandbox();
const server = await startSandboxServer({ sandbox, port: 0 });
const wallet = new WalletClient({ apiKey: 'sk_sandbox_demo_shop', baseUrl: server.baseUrl });

const tokens = new Map<string, string>();
let paid: (transactionId: string) => void = () => {};
const firstPayment = new Promise<string>((resolve) => {
  paid = resolve;
});

const handler = createWebhookHandler({
  verifyWith: wallet,
  onUserAuthorized: (event) => {
    // In production: store it encrypted, keyed by your own user id.
    tokens.set(event.user_email, event.token);
  },
  onTransaction: (event, context) => {
    // `context.status` is what the status endpoint says; the webhook body is only a hint.
    if (context.verified && context.status.transaction_status === 'completed') paid(event.transaction_id);
  },
});
const onRequest = toNodeHandler(handler);
const receiver = createServer((req, res) => void onRequest(req, res));
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/wallet/webhook`;

try {
  // What a merchant sets once in the portal.
  sandbox.updateMerchant('app_demo_shop', { authWebhookUrl: webhookUrl, depositWebhookUrl: webhookUrl });

  // Same effect as the user approving on the login page: the token arrives by webhook.
  sandbox.authorize({ email: 'alice@example.com', appId: 'app_demo_shop' });
  await sandbox.webhooks.idle();
  const userToken = tokens.get('alice@example.com');
  if (userToken === undefined) throw new Error('no token arrived');
  console.log('token stored for alice@example.com');

  const deposit = await wallet.deposit(
    { reference_id: `order-${Date.now()}`, amount: 150, currency: 'KES' },
    { userToken },
  );
  console.log(`deposit ${deposit.transaction_id}: ${deposit.transaction_status}`);
  console.log(`webhook confirmed payment of ${await firstPayment}`);
} finally {
  sandbox.close();
  await server.close();
  await new Promise((resolve) => {
    receiver.close(resolve);
    receiver.closeAllConnections();
  });
}
