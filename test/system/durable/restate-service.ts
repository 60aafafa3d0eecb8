/**
 * The service process of the Restate recipe's tests and soak: the `checkout` service of
 * examples/restate on a PostgreSQL journal, fulfilling each order into `restate_fulfilments`
 * (counting every run of the fulfil step). Environment: WALLET_BASE_URL, DATABASE_URL,
 * RESTATE_INGRESS_URL, PORT. Prints `ready` once it listens; the soak kills it with SIGKILL.
 */
import * as restate from '@restatedev/restate-sdk';
import { WalletClient } from 'merchant-wallet';
import { createPostgresJournal } from 'merchant-wallet/postgres';
import pg from 'pg';
import { checkoutService } from '../../../examples/restate/checkout.js';
import { completeAwakeableOnSettled } from '../../../examples/restate/settlement.js';
import { DURABLE_API_KEY, tokenOfEmail } from './payers.js';

const ingressUrl = process.env.RESTATE_INGRESS_URL ?? '';
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 16 });
const wallet = new WalletClient({
  apiKey: DURABLE_API_KEY,
  baseUrl: process.env.WALLET_BASE_URL,
  journal: createPostgresJournal({ db: pool }),
  maxRetries: 1,
  timeoutMs: 2_000,
  settleLeaseMs: 3_000,
  onSettled: completeAwakeableOnSettled(ingressUrl),
});

const service = checkoutService({
  wallet,
  tokenFor: async (email) => tokenOfEmail(email),
  // Keyed by order id: a run cut off after its commit runs again and only counts.
  fulfil: async (order, outcome) => {
    await pool.query(
      `INSERT INTO restate_fulfilments (order_id, reference_id, status, runs) VALUES ($1, $2, $3, 1)
       ON CONFLICT (order_id) DO UPDATE SET runs = restate_fulfilments.runs + 1,
         conflicting = restate_fulfilments.conflicting
           OR restate_fulfilments.status <> EXCLUDED.status
           OR restate_fulfilments.reference_id <> EXCLUDED.reference_id`,
      [order.orderId, outcome.referenceId, outcome.status],
    );
  },
});

await restate.endpoint().bind(service).listen(Number(process.env.PORT));
process.stdout.write('ready\n');
