/**
 * Wallet Shop: a small reference shop on the Merchant Wallet API. Customers connect their wallet,
 * pay orders by deposit (at once from the wallet, or pending through a mobile-money provider),
 * and receive payouts; an operator page shows orders and the payment journal.
 *
 * Run: npm run example:shop (see README.md here for the environment variables).
 */
import { randomBytes } from 'node:crypto';
import {
  createTokenVault,
  createTransactionEvents,
  type RecoveredIntent,
  WalletClient,
} from 'merchant-wallet';
import { createSandbox, type Sandbox, type SandboxServer, startSandboxServer } from 'merchant-wallet/testing';
import { createWebhookHandler } from 'merchant-wallet/webhooks';
import { createApp } from './app.js';
import { serve } from './serve.js';
import { createSettlement, referenceOf } from './settle.js';
import { openStores } from './stores.js';

const env = process.env;
const port = Number(env.PORT ?? 3000);
const shopUrl = env.SHOP_URL ?? `http://127.0.0.1:${port}`;
const webhookUrl = `${shopUrl}/wallet/webhook`;
const appId = env.WALLET_APP_ID ?? 'app_demo_shop';
const stores = await openStores(env);

// The wallet service: WALLET_BASE_URL, or a sandbox in this process whose deposits through a
// provider are approved 3 s after they start.
let sandbox: Sandbox | undefined;
let sandboxServer: SandboxServer | undefined;
if (env.WALLET_BASE_URL === undefined) {
  const controlKey = env.SANDBOX_CONTROL_KEY;
  sandbox = createSandbox(undefined, { autoSettleMs: 3_000, ...(controlKey ? { controlKey } : {}) });
  sandboxServer = await startSandboxServer({ sandbox, port: 0 });
}
const baseUrl = env.WALLET_BASE_URL ?? (sandboxServer as SandboxServer).baseUrl;
const authUrl = env.WALLET_AUTH_URL ?? `${baseUrl}/auth`;

// Tokens are sealed with TOKEN_KEY (32 bytes, base64). A key made up here is lost on restart, and
// with it every stored token: fine in memory, not in a database.
if (env.TOKEN_KEY === undefined && stores.durable)
  throw new Error('TOKEN_KEY is required with DATABASE_URL or REDIS_URL');
const vault = createTokenVault({
  store: stores.tokens,
  keys: { primary: 'k1', keys: { k1: env.TOKEN_KEY ?? randomBytes(32).toString('base64') } },
  appId,
  login: {
    authUrl,
    redirectUrl: `${shopUrl}/wallet/connected`,
    allowedRedirectHosts: [new URL(shopUrl).hostname],
  },
  dedupe: stores.dedupe,
});
const wallet = new WalletClient({
  apiKey: env.WALLET_API_KEY ?? 'sk_sandbox_demo_shop',
  baseUrl,
  journal: stores.journal,
  tokens: vault,
});

// Fulfilment runs once per order: here it is a log line (the shop check counts them).
const settle = createSettlement(stores.orders, (id, paid) =>
  console.log(`${paid ? 'fulfilled' : 'cancelled'} ${id}`),
);
const events = createTransactionEvents(); // one process; createPostgresTransactionEvents for several
const follow = (referenceId: string, transactionId: string) =>
  void wallet
    .waitForTransaction(transactionId, { events, timeoutMs: 15 * 60_000 })
    .then((status) => settle(referenceId, status.transaction_status, transactionId))
    .catch((error: unknown) => console.warn(`still open: ${referenceId} (${String(error)})`));

const webhook = createWebhookHandler({
  verifyWith: wallet, // webhooks are unsigned: each one is read back from the status endpoint
  dedupe: stores.dedupe,
  onUserAuthorized: (event) => vault.receive(event),
  async onTransaction(event, context) {
    events.publish(event, context);
    if (!context.verified) return;
    const { status } = context;
    await settle(status.reference_id ?? event.reference_id, status.transaction_status, status.transaction_id);
  },
  onError: (error, { stage }) => console.warn(`webhook not processed (${stage}): ${String(error)}`),
});

let ready = false;
const app = createApp({
  wallet,
  vault,
  journal: stores.journal,
  orders: stores.orders,
  webhook,
  webhookUrl,
  settle,
  follow,
  ready: () => ready,
});

/** Settles what recovery learned; a deposit applied before the crash gets its id from its webhook. */
async function settleRecovered({ referenceId, endpoint, outcome, transactionId }: RecoveredIntent) {
  if (outcome === 'refused') return settle(referenceId, 'failed');
  if (outcome !== 'applied' && outcome !== 'already_applied') return; // still unknown: the next start retries
  if (transactionId === undefined)
    return endpoint === 'withdraw' ? settle(referenceId, 'completed') : undefined;
  const status = await wallet.getTransaction(transactionId);
  if (status.transaction_status === 'pending') follow(referenceId, transactionId);
  else await settle(referenceId, status.transaction_status, transactionId);
}

// Start-up, in this order:
// 1. The webhook endpoint listens, so webhooks for payments a crash interrupted can land.
const { server } = await serve(app.fetch, port, env.HOST ?? '127.0.0.1');
sandbox?.updateMerchant(appId, { authWebhookUrl: webhookUrl, depositWebhookUrl: webhookUrl });
// 2. recover() re-sends what a crash left `sending` or `unknown`, under the same reference ids,
//    so a payment the service already applied is never applied twice.
const report = await wallet.recover();
for (const intent of report.intents) await settleRecovered(intent);
for (const order of await stores.orders.open()) {
  const reference = referenceOf(order);
  if (order.status === 'pending' && order.transactionId !== null) follow(reference, order.transactionId);
  else if ((await stores.journal.get(reference)) === undefined) await settle(reference, 'failed'); // never sent
}
// 3. Only now does the shop take orders.
ready = true;
console.log(`recovered ${JSON.stringify(report.counts)}`);
console.log(`stores ${stores.description}`);
console.log(`wallet ${baseUrl}${sandbox ? ' (embedded sandbox)' : ''}`);
console.log(`shop ${shopUrl}`);

for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    server.close();
    server.closeAllConnections();
    sandbox?.close();
    void Promise.all([sandboxServer?.close(), stores.close()]).then(() => process.exit(0));
  });
