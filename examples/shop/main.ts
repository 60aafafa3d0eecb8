/**
 * Wallet Shop: a small reference shop on the Merchant Wallet API. Customers connect their wallet,
 * pay orders by deposit (at once from the wallet, or pending through a mobile-money provider),
 * and receive payouts; an operator page shows orders and the payment journal.
 *
 * Run: npm run example:shop (see README.md here for the environment variables).
 */
import { randomBytes } from 'node:crypto';
import { createTokenVault, type OnSettled, WalletClient } from 'merchant-wallet';
import { createSandbox, type Sandbox, type SandboxServer, startSandboxServer } from 'merchant-wallet/testing';
import { createWebhookHandler } from 'merchant-wallet/webhooks';
import { createApp } from './app.js';
import { referenceOf } from './orders.js';
import { serve } from './serve.js';
import { openStores } from './stores.js';

const env = process.env;
const port = Number(env.PORT ?? 3000);
const shopUrl = env.SHOP_URL ?? `http://127.0.0.1:${port}`;
const webhookUrl = `${shopUrl}/wallet/webhook`;
const appId = env.WALLET_APP_ID ?? 'app_demo_shop';
const stores = await openStores(env);
const { journal, orders } = stores;

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

// Fulfilment (a log line here): the SDK calls onSettled once a payment is `completed` or `failed`,
// whichever path learns it first; at least once, so the order store's conditional update guards it.
// On PostgreSQL the update commits in the settlement's own transaction: exactly once.
const onSettled: OnSettled = async (intent, status, { transaction }) => {
  const id = intent.metadata?.orderId;
  const paid = status === 'completed';
  if (id && (await orders.finish(id, paid ? 'paid' : 'failed', intent.transactionId, transaction)))
    console.log(`${paid ? 'fulfilled' : 'cancelled'} ${id}`);
};
const wallet = new WalletClient({
  apiKey: env.WALLET_API_KEY ?? 'sk_sandbox_demo_shop',
  baseUrl,
  journal,
  tokens: vault,
  onSettled,
});

const webhook = createWebhookHandler({
  verifyWith: wallet, // webhooks are unsigned: each is read back from the status endpoint, which settles it
  dedupe: stores.dedupe,
  onUserAuthorized: (event) => vault.receive(event),
  onTransaction: () => {},
  onError: (error, { stage }) => console.warn(`webhook not processed (${stage}): ${String(error)}`),
});

let ready = false;
const app = createApp({ ...stores, wallet, vault, webhook, webhookUrl, ready: () => ready });

// Start-up, in this order (docs/settlement.md):
// 1. The webhook endpoint listens, so webhooks for payments a crash interrupted can land.
const { server } = await serve(app.fetch, port, env.HOST ?? '127.0.0.1');
sandbox?.updateMerchant(appId, { authWebhookUrl: webhookUrl, depositWebhookUrl: webhookUrl });
// 2. recover() re-sends what a crash left `sending` or `unknown`, under the same reference ids (so
//    nothing is applied twice), and settles what it learns. An order whose payment was refused or
//    never recorded moved no money: it fails here.
const report = await wallet.recover();
for (const order of await orders.open()) {
  const intent = await journal.get(referenceOf(order));
  if (intent === undefined || intent.state === 'refused' || intent.state === 'closed')
    await orders.finish(order.id, 'failed', undefined);
}
// 3. The sweeper settles what no callback does: it reads pending payments (first after 2 s, a short
//    schedule for a demo; the default is 30 s) and re-sends what stays `sending` for a minute.
const stop = new AbortController();
void wallet.supervise({
  signal: stop.signal,
  intervalMs: 1_000,
  firstCheckMs: 2_000,
  maxCheckIntervalMs: 60_000,
  onSweep: (swept) => {
    for (const i of swept.intents) console.log(`swept ${i.referenceId} ${i.action} ${i.outcome}`);
  },
});
// 4. Only now does the shop take orders.
ready = true;
console.log(`recovered ${JSON.stringify(report.counts)}`);
console.log(`stores ${stores.description}`);
console.log(`wallet ${baseUrl}${sandbox ? ' (embedded sandbox)' : ''}`);
console.log(`shop ${shopUrl}`);

for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    stop.abort();
    server.close();
    server.closeAllConnections();
    sandbox?.close();
    void Promise.all([sandboxServer?.close(), stores.close()]).then(() => process.exit(0));
  });
