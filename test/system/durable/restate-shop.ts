/**
 * The shop process of the Restate recipe's tests and soak: the webhook endpoint that completes the
 * payments' awakeables (examples/restate/settlement.ts), and the sweeper behind it, on a soak's
 * clock. Environment: WALLET_BASE_URL, DATABASE_URL, RESTATE_INGRESS_URL. Prints `ready <port>`.
 */
import { createServer } from 'node:http';
import { WalletClient } from 'merchant-wallet';
import { createPostgresJournal } from 'merchant-wallet/postgres';
import { toNodeHandler } from 'merchant-wallet/webhooks';
import pg from 'pg';
import { completeAwakeableOnSettled, restateWebhookHandler } from '../../../examples/restate/settlement.js';
import { DURABLE_API_KEY } from './payers.js';

const ingressUrl = process.env.RESTATE_INGRESS_URL ?? '';
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 8 });
const journal = createPostgresJournal({ db: pool });
const wallet = new WalletClient({
  apiKey: DURABLE_API_KEY,
  baseUrl: process.env.WALLET_BASE_URL,
  journal,
  maxRetries: 1,
  timeoutMs: 2_000,
  settleLeaseMs: 3_000,
  onSettled: completeAwakeableOnSettled(ingressUrl),
});

const handle = toNodeHandler(restateWebhookHandler({ verifyWith: wallet, journal, ingressUrl }));
const server = createServer((request, response) => void handle(request, response));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

// The backstop: what no webhook settles, the sweeper reads and settles, completing its awakeable.
// Deposits are re-sent by the Restate handler itself, never by the sweeper: it has no user token.
void wallet.supervise({
  signal: new AbortController().signal,
  intervalMs: 200,
  userTokenFor: () => undefined,
  sendingGraceMs: 3_000,
  firstCheckMs: 1_000,
  maxCheckIntervalMs: 4_000,
  leaseMs: 5_000,
});
process.stdout.write(`ready ${(server.address() as { port: number }).port}\n`);
