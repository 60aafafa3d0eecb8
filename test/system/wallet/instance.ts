/**
 * One merchant instance for the composed-wallet system test: `createWallet` on PostgreSQL
 * (`DATABASE_URL`) or Redis (`REDIS_URL`), served on node:http. Routes: the webhook endpoint, "connect
 * your wallet" (`/wallet/connect`, `/wallet/connected`), `POST /pay` and `POST /payout` (JSON), and
 * `/health`. Fulfilment: on PostgreSQL each `onSettled` run inserts a row through the settlement's
 * transaction (a second committed run would show as a second row); on Redis it is keyed by
 * reference (`HSETNX`), and every run is counted. Prints `port N`, then `ready`.
 */
import { createServer, type IncomingMessage } from 'node:http';
import pg from 'pg';
import { createClient } from 'redis';
import {
  isReauthorizationRequired,
  isWalletApiError,
  type PaymentIntent,
  type SettlementTransaction,
  WalletError,
} from '../../../src/index.js';
import { createWallet } from '../../../src/wallet/index.js';

const env = process.env;
const pool = env.DATABASE_URL ? new pg.Pool({ connectionString: env.DATABASE_URL, max: 6 }) : undefined;
const redis = env.REDIS_URL ? await createClient({ url: env.REDIS_URL }).connect() : undefined;
if (pool)
  await pool.query('CREATE TABLE IF NOT EXISTS fulfilments (reference text NOT NULL, status text NOT NULL)');

async function fulfil(intent: PaymentIntent, status: string, transaction: SettlementTransaction | undefined) {
  if (transaction) {
    await transaction.query('INSERT INTO fulfilments (reference, status) VALUES ($1, $2)', [
      intent.referenceId,
      status,
    ]);
  } else {
    await redis?.hIncrBy('fulfilment-runs', intent.referenceId, 1);
    await redis?.hSetNX('fulfilments', intent.referenceId, status);
  }
}

const wallet = createWallet({
  apiKey: 'sk_sandbox_demo_shop',
  baseUrl: env.WALLET_BASE_URL,
  allowInsecureHttp: true,
  logLevel: 'off',
  store: pool ? { postgres: pool } : { redis: redis as never },
  vault: {
    keys: { primary: 'k1', keys: { k1: env.TOKEN_KEY ?? '' } },
    appId: 'app_demo_shop',
    login: { authUrl: `${env.WALLET_BASE_URL}/auth`, redirectUrl: `${env.ROUTER_URL}/wallet/connected` },
  },
  onSettled: (intent, status, { transaction }) => fulfil(intent, status, transaction),
  onRefused: (intent, { transaction }) => fulfil(intent, 'refused', transaction),
  sweeper: { intervalMs: 300, firstCheckMs: 500, maxCheckIntervalMs: 2_000 },
  // Short calls, so the restart rule takes over an interrupted payment 2 s after it was recorded.
  timeoutMs: 1_000,
  maxRetries: 0,
});

const readJson = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString() || '{}') as {
    reference: string;
    amount: number;
    email: string;
    provider?: string;
  };
};

const failure = (error: unknown) => ({
  error: error instanceof WalletError ? error.name : String(error),
  code: isWalletApiError(error) ? error.code : undefined,
  // The login bound to the user whose token was refused: where the shop sends the user back.
  loginUrl: isReauthorizationRequired(error) ? error.loginUrl : undefined,
});

const server = createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', 'http://instance');
  const send = (status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  try {
    if (url.pathname === '/wallet/webhooks') return await wallet.nodeWebhooks(req, res);
    if (url.pathname === '/health') return send(wallet.ready ? 200 : 503, { pid: process.pid });
    if (url.pathname === '/wallet/connect') {
      const login = await wallet.vault?.startLogin({ account: url.searchParams.get('account') ?? 'a' });
      return res.writeHead(302, { location: login?.url ?? '/' }).end();
    }
    if (url.pathname === '/wallet/connected') {
      const state = url.searchParams.get('state') ?? '';
      const done = await wallet.vault?.completeLogin(state, { client: wallet.client, waitMs: 5_000 });
      return send(200, {
        status: done?.status,
        email: done?.status === 'connected' ? done.email : undefined,
      });
    }
    const body = await readJson(req);
    if (url.pathname === '/pay') {
      const deposit = await wallet.client.deposit(
        {
          reference_id: body.reference,
          amount: body.amount,
          currency: 'KES',
          ...(body.provider && { payment_provider: body.provider }),
        },
        { user: body.email },
      );
      return send(200, deposit);
    }
    if (url.pathname === '/payout') {
      return send(
        200,
        await wallet.client.withdraw({
          reference_id: body.reference,
          email: body.email,
          amount: body.amount,
          currency: 'KES',
        }),
      );
    }
    send(404, {});
  } catch (error) {
    send(422, failure(error));
  }
});
server.listen(Number(env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`port ${(server.address() as { port: number }).port}\n`);
});
await wallet.start();
process.stdout.write('ready\n');
process.on('SIGTERM', () => {
  server.close();
  void wallet
    .close()
    .then(() => Promise.all([pool?.end(), redis?.close()]))
    .then(() => process.exit(0));
});
