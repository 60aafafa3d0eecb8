import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { WalletClient } from '../../src/index.js';
import { buildLoginUrl } from '../../src/login.js';
import {
  createSandbox,
  type Sandbox,
  type SandboxServer,
  startSandboxServer,
} from '../../src/testing/index.js';
import type { UserAuthorizedEvent } from '../../src/webhooks/index.js';
import { startWebhookReceiver, type WebhookReceiver } from '../integration/webhook-receiver.js';
import { launchChromium } from './chromium.js';

const APP_ID = 'app_demo_shop';

let sandbox: Sandbox;
let server: SandboxServer;
let receiver: WebhookReceiver;
let shop: Server;
let shopUrl: string;
let browser: Browser;
let screenshotDir: string;
const tokens: UserAuthorizedEvent[] = [];

/** The merchant app's return page: shows whether the wallet got connected. */
async function startShop(): Promise<void> {
  shop = createServer((req, res) => {
    const denied = new URL(req.url ?? '/', 'http://shop').searchParams.get('error') === 'access_denied';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html lang="en"><title>Demo Shop</title><h1>${denied ? 'Wallet not connected' : 'Wallet connected'}</h1></html>`,
    );
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}/wallet/done?order=42`;
}

beforeAll(async () => {
  sandbox = createSandbox();
  server = await startSandboxServer({ sandbox, port: 0 });
  receiver = await startWebhookReceiver({ onUserAuthorized: (event) => void tokens.push(event) });
  sandbox.updateMerchant(APP_ID, { authWebhookUrl: receiver.url });
  await startShop();
  screenshotDir = await mkdtemp(join(tmpdir(), 'login-browser-'));
  browser = await launchChromium();
});

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
  if (screenshotDir) await rm(screenshotDir, { recursive: true, force: true });
});

function loginUrl(appId = APP_ID): string {
  return buildLoginUrl({
    authUrl: server.authUrl,
    appId,
    redirectUrl: shopUrl,
    allowedRedirectHosts: ['127.0.0.1'],
  });
}

async function openLoginPage(): Promise<Page> {
  const page = await browser.newPage();
  const response = await page.goto(loginUrl());
  expect(response?.status()).toBe(200);
  return page;
}

test('the login page is accessible: lang, a labelled e-mail field, named buttons', async () => {
  const page = await openLoginPage();
  expect(await page.getAttribute('html', 'lang')).toBe('en');
  await expect(page.title()).resolves.toBe('Sign in to Merchant Wallet');
  expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign in to Merchant Wallet');
  const email = page.getByLabel('E-mail address');
  expect(await email.getAttribute('type')).toBe('email');
  expect(await email.getAttribute('autocomplete')).toBe('email');
  expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(1);
  expect(await page.getByRole('button', { name: 'Deny' }).count()).toBe(1);
  const shot = join(screenshotDir, 'login.png');
  await page.screenshot({ path: shot, fullPage: true });
  expect(existsSync(shot)).toBe(true);
  await page.close();
});

test('approving lands on redirect_url, and the token the webhook got works for listProviders', async () => {
  const page = await openLoginPage();
  await page.getByLabel('E-mail address').fill('alice@example.com');
  await Promise.all([page.waitForURL(shopUrl), page.getByRole('button', { name: 'Approve' }).click()]);

  expect(page.url()).toBe(shopUrl);
  expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Wallet connected');
  expect(tokens.map((event) => event.user_email)).toEqual(['alice@example.com']);
  const wallet = new WalletClient({ apiKey: 'sk_sandbox_demo_shop', baseUrl: server.baseUrl });
  const providers = await wallet.listProviders({ userToken: tokens[0]?.token ?? '' });
  expect(providers.payment_providers.mobile_payment_providers.map((p) => p.provider_name)).toEqual([
    'mpesa',
    'airtel',
  ]);
  await page.close();
});

test('denying lands on redirect_url with error=access_denied and delivers no token', async () => {
  const delivered = sandbox.webhooks.deliveries().length;
  const page = await openLoginPage();
  const denied = new URL(shopUrl);
  denied.searchParams.set('error', 'access_denied');
  await Promise.all([page.waitForURL(denied.href), page.getByRole('button', { name: 'Deny' }).click()]);

  expect(new URL(page.url()).searchParams.get('order')).toBe('42');
  expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Wallet not connected');
  expect(sandbox.webhooks.deliveries()).toHaveLength(delivered);
  await page.close();
});

test('an unknown app id shows the 400 error page and does not redirect', async () => {
  const page = await browser.newPage();
  const response = await page.goto(loginUrl('app_nope'));

  expect(response?.status()).toBe(400);
  expect(page.url()).toBe(loginUrl('app_nope'));
  expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Unknown application');
  expect(await page.getByRole('alert').textContent()).toMatch(/app_id/);
  await page.close();
});
