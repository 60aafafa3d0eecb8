/**
 * Wallet Shop: a small reference shop on the Merchant Wallet API. Customers connect their wallet,
 * pay orders by deposit (at once from the wallet, or pending through a mobile-money provider),
 * and receive payouts; an operator page shows orders and the payment journal.
 *
 * Run: npm run example:shop (see README.md here for the environment variables).
 */
import { randomBytes } from 'node:crypto';
import type { PaymentIntent, SettlementTransaction, SweepReport, TokenVault } from 'merchant-wallet';
import { createSandbox, type Sandbox, type SandboxServer, startSandboxServer } from 'merchant-wallet/testing';
import { createWallet } from 'merchant-wallet/wallet';
import { createApp } from './app.js';
import { referenceOf } from './orders.js';
import { serve } from './serve.js';
import { openStores } from './stores.js';

const env = process.env;
const port = Number(env.PORT ?? 3000);
const shopUrl = env.SHOP_URL ?? `http://127.0.0.1:${port}`;
const webhookUrl = `${shopUrl}/wallet/webhook`;
const stores = await openStores(env);
const { orders } = stores;

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
// Tokens are sealed with TOKEN_KEY (32 bytes, base64). A key made up here is lost on restart, and
// with it every stored token: fine in memory, not in a database.
if (env.TOKEN_KEY === undefined && stores.durable)
  throw new Error('TOKEN_KEY is required with DATABASE_URL or REDIS_URL');

const appId = env.WALLET_APP_ID ?? 'app_demo_shop';
const authUrl = env.WALLET_AUTH_URL ?? `${baseUrl}/auth`;
const tokenKey = env.TOKEN_KEY ?? randomBytes(32).toString('base64');

// The shop's business: fulfil or cancel an order once its payment ends. The SDK calls it once per
// payment, fleet-wide; orders.finish is a conditional update, and on PostgreSQL it commits in the
// settlement's own transaction: exactly once.
async function finish(intent: PaymentIntent, paid: boolean, transaction?: SettlementTransaction) {
  const id = intent.metadata?.orderId;
  if (id && (await orders.finish(id, paid ? 'paid' : 'failed', intent.transactionId, transaction)))
    console.log(`${paid ? 'fulfilled' : 'cancelled'} ${id}`);
}
const logSweep = (swept: SweepReport) => {
  for (const i of swept.intents) console.log(`swept ${i.referenceId} ${i.action} ${i.outcome}`);
};
const shutdown = async () => {
  server.closeAllConnections();
  sandbox?.close();
  await Promise.all([sandboxServer?.close(), stores.close()]);
  process.exit(0);
};

// --- wiring: the wallet, its webhook route, start-up and shutdown (counted in README.md) ---
const wallet = createWallet({
  apiKey: env.WALLET_API_KEY ?? 'sk_sandbox_demo_shop',
  baseUrl,
  store: stores.wallet, // memory, { postgres: pool } or { redis: client }: journal, dedupe, tokens
  vault: {
    keys: { primary: 'k1', keys: { k1: tokenKey } },
    appId,
    login: { authUrl, redirectUrl: `${shopUrl}/wallet/connected` },
  },
  onSettled: (intent, status, { transaction }) => finish(intent, status === 'completed', transaction),
  onRefused: (intent, { transaction }) => finish(intent, false, transaction),
  // A short schedule for a demo (the defaults: a first look after 30 s, doubling up to an hour).
  sweeper: { intervalMs: 1_000, firstCheckMs: 2_000, maxCheckIntervalMs: 60_000, onSweep: logSweep },
  timeoutMs: 5_000, // short calls: a payment a crash interrupted is taken over 10 s later (the restart rule)
  maxRetries: 0,
});
const vault = wallet.vault as TokenVault;
const deps = { ...stores, wallet: wallet.client, vault, journal: wallet.journal, webhookUrl };
const app = createApp({ ...deps, webhook: wallet.webhooks, ready: () => wallet.ready });
const { server } = await serve(app.fetch, port, env.HOST ?? '127.0.0.1');
sandbox?.updateMerchant(appId, { authWebhookUrl: webhookUrl, depositWebhookUrl: webhookUrl });
const report = await wallet.start(); // migrations, webhook intake, recovery, the sweeper; then ready
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => void Promise.all([wallet.close(), server.close()]).then(shutdown));
// --- end of wiring ---

// The shop's own start-up pass: an order whose payment was never recorded (a crash before the
// journal write) or was closed by hand moved no money.
for (const order of await orders.open()) {
  const intent = await wallet.journal.get(referenceOf(order));
  if (intent === undefined || intent.state === 'closed') await orders.finish(order.id, 'failed', undefined);
}
logSweep(report.recovered); // start()'s recovery is a sweep too
console.log(`recovered ${report.recovered.claimed}, settled ${report.recovered.settled}`);
console.log(`stores ${stores.description}`);
console.log(`wallet ${baseUrl}${sandbox ? ' (embedded sandbox)' : ''}`);
console.log(`shop ${shopUrl}`);
