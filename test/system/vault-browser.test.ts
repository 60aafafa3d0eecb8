import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  createTokenVault,
  isReauthorizationRequired,
  type TokenVault,
  WalletClient,
  WalletReauthorizationRequiredError,
} from '../../src/index.js';
import { createPostgresTokenStore } from '../../src/stores/postgres/index.js';
import {
  createSandbox,
  type Sandbox,
  type SandboxServer,
  startSandboxServer,
} from '../../src/testing/index.js';
import { startWebhookReceiver, type WebhookReceiver } from '../integration/webhook-receiver.js';
import { launchChromium } from './chromium.js';
import { usePostgresPool } from './stores/postgres-pool.js';

const APP_ID = 'app_demo_shop';
const ALICE = 'alice@example.com';

let sandbox: Sandbox;
let server: SandboxServer;
const postgres = usePostgresPool({ max: 4, migrate: {} });
let vault: TokenVault;
let wallet: WalletClient;
let receiver: WebhookReceiver;
let shop: Server;
let shopUrl: string;
let browser: Browser;

/** The shop: "connect your wallet" starts a login; the redirect page completes it. */
async function startShop(): Promise<void> {
  shop = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://shop');
    const page = (status: number, heading: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html lang="en"><title>Shop</title><h1>${heading}</h1></html>`);
    };
    if (url.pathname === '/connect') {
      void vault.startLogin({ account: 'customer-7' }).then((login) => {
        res.writeHead(302, { location: login.url });
        res.end();
      });
      return;
    }
    const state = url.searchParams.get('state');
    if (state === null) return page(200, 'Wallet connected');
    void vault.completeLogin(state, { client: wallet, waitMs: 5_000 }).then(
      (result) =>
        page(
          200,
          result.status === 'connected' ? `Connected ${result.email} to ${result.account}` : result.status,
        ),
      (error: Error) => page(400, error.name),
    );
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  sandbox = createSandbox();
  server = await startSandboxServer({ sandbox, port: 0 });
  await startShop();
  vault = createTokenVault({
    store: createPostgresTokenStore({ db: postgres.pool }),
    keys: { primary: 'k1', keys: { k1: randomBytes(32).toString('base64') } },
    appId: APP_ID,
    login: {
      authUrl: server.authUrl,
      redirectUrl: `${shopUrl}/connected`,
      allowedRedirectHosts: ['127.0.0.1'],
    },
  });
  wallet = new WalletClient({ apiKey: 'sk_sandbox_demo_shop', baseUrl: server.baseUrl, tokens: vault });
  receiver = await startWebhookReceiver({ onUserAuthorized: (event) => vault.receive(event) });
  sandbox.updateMerchant(APP_ID, { authWebhookUrl: receiver.url });
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await new Promise((resolve) => {
    if (!shop) return resolve(undefined);
    shop.close(resolve);
    shop.closeAllConnections();
  });
  sandbox?.close();
  await server?.close();
});

async function approveAs(page: Page, email: string): Promise<void> {
  await page.getByLabel('E-mail address').fill(email);
  await Promise.all([page.waitForURL(/\/connected/), page.getByRole('button', { name: 'Approve' }).click()]);
}

const deposit = () =>
  wallet.deposit(
    { reference_id: `order-${randomBytes(6).toString('hex')}`, amount: 10, currency: 'KES' },
    { user: ALICE },
  );

test('connect, an encrypted row, pay by e-mail, revoke, reconnect from the error, pay again', async () => {
  const page = await browser.newPage();

  // Connect: the shop's login carries a one-time state, and its redirect page links the wallet.
  await page.goto(`${shopUrl}/connect`);
  expect(await page.title()).toBe('Sign in to Merchant Wallet');
  await approveAs(page, ALICE);
  expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
    `Connected ${ALICE} to customer-7`,
  );
  const redirectWithState = page.url();
  expect(new URL(redirectWithState).searchParams.get('state')).toMatch(/^[\w-]{22}$/);

  // At rest: the PostgreSQL row holds a sealed token, never the token.
  const token = await vault.tokenFor(ALICE);
  expect(token).toMatch(/^tok_/);
  const { rows } = await postgres.pool.query('SELECT key, value FROM merchant_wallet_tokens');
  const table = JSON.stringify(rows);
  expect(table).toContain(`user:${ALICE}`);
  expect(table).toMatch(/"current\\":\\"mwt1\.k1\./);
  expect(table).not.toContain(token as string);

  // Pay by e-mail.
  await expect(deposit()).resolves.toMatchObject({ transaction_status: 'completed' });

  // The user revokes the app in the wallet: the next deposit asks for a new login.
  sandbox.revoke({ email: ALICE });
  const error = await deposit().catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(WalletReauthorizationRequiredError);
  const { loginUrl } = error as WalletReauthorizationRequiredError;
  expect(loginUrl).toBeDefined();
  expect(await vault.tokenFor(ALICE)).toBeUndefined();
  await expect(deposit()).rejects.toSatisfy(isReauthorizationRequired);

  // The error's login URL carries a state bound to Alice: approving again lands on the shop's
  // redirect page, whose completeLogin makes the new token current.
  expect(
    new URL(new URL(loginUrl as string).searchParams.get('redirect_url') as string).searchParams.get('state'),
  ).toMatch(/^[\w-]{22}$/);
  const response = await page.goto(loginUrl as string);
  expect(response?.status()).toBe(200);
  await approveAs(page, ALICE);
  expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`Connected ${ALICE} to ${ALICE}`);

  // The next payment succeeds on the first try: one deposit sent, and it completed.
  const before = sandbox.transactions().length;
  await expect(deposit()).resolves.toMatchObject({ transaction_status: 'completed' });
  expect(sandbox.transactions()).toHaveLength(before + 1);

  // A replayed redirect is refused.
  const replay = await page.goto(redirectWithState);
  expect(replay?.status()).toBe(400);
  expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('WalletLoginStateError');
  await page.close();
}, 60_000);
