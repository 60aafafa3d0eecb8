/**
 * One instance of `npm run soak:fleet`: a webhook endpoint, then recover(), then the sweeper, then
 * payments until it is killed. Its `onSettled` fulfils each payment in `soak_fulfilments`, counting runs.
 * Environment: WALLET_BASE_URL, DATABASE_URL (fulfilments, and the journal unless REDIS_URL is set),
 * REDIS_URL (the journal and dedupe store on Redis), INSTANCE, RUN, PAY=0 to only sweep (the drain).
 */
import { createServer } from 'node:http';
import pg from 'pg';
import { WalletClient } from '../../src/index.js';
import { createWebhookHandler, toNodeHandler } from '../../src/webhooks/index.js';
import { FLEET_SCHEDULE, paymentOf, tokenOf } from './plan.js';
import { fleetStores } from './stores.js';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 12 });
const stores = await fleetStores(pool, process.env.REDIS_URL);
const instance = process.env.INSTANCE ?? '0';
const run = process.env.RUN ?? '0';
const wallet = new WalletClient({
  apiKey: 'sk_sandbox_demo_shop',
  baseUrl: process.env.WALLET_BASE_URL,
  journal: stores.journal,
  maxRetries: 1,
  timeoutMs: 2_000,
  settleLeaseMs: 3_000,
  // Fulfilment keyed by reference id (idempotent, as docs/settlement.md asks), counting each run
  // that committed. On the PostgreSQL journal it commits in the settlement's own transaction.
  onSettled: async (intent, status, { transaction }) => {
    await (transaction ?? pool).query(
      `INSERT INTO soak_fulfilments (reference_id, status, runs) VALUES ($1, $2, 1)
       ON CONFLICT (reference_id) DO UPDATE SET runs = soak_fulfilments.runs + 1`,
      [intent.referenceId, status],
    );
  },
});

// 1. The webhook endpoint listens first.
const handle = toNodeHandler(
  createWebhookHandler({
    verifyWith: wallet,
    dedupe: stores.dedupe,
    leaseMs: 5_000,
    onTransaction: () => {},
  }),
);
const server = createServer((request, response) => void handle(request, response));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = (server.address() as { port: number }).port;

// 2. Resolve what a crash left open; deposits carry their user in the reference id.
await wallet.recover({ olderThanMs: 2_000, userTokenFor: (intent) => tokenOf(intent.referenceId) });

// 3. The sweeper.
const stop = new AbortController();
void wallet.supervise({
  signal: stop.signal,
  intervalMs: 200,
  userTokenFor: (intent) => tokenOf(intent.referenceId),
  ...FLEET_SCHEDULE,
});
process.stdout.write(`ready ${port}\n`);

// 4. Payments, unless this instance only drains.
if (process.env.PAY !== '0') {
  let next = 0;
  const lane = async () => {
    for (;;) {
      const n = next++;
      const payment = paymentOf(`${instance}-${run}`, n);
      try {
        if (payment.kind === 'deposit') await wallet.deposit(payment.body, { userToken: payment.token });
        else await wallet.withdraw(payment.body);
      } catch {
        // Refusals and unknown outcomes are in the journal; the sweeper settles the unknown ones.
      }
    }
  };
  await Promise.all(Array.from({ length: 4 }, lane));
}
