import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { WalletClient } from '../../src/index.js';
import {
  createSandbox,
  type Sandbox,
  type SandboxServer,
  startSandboxServer,
} from '../../src/testing/index.js';
import { type Receiver, startReceiver } from '../testing/helpers.js';
import { launchChromium } from './chromium.js';

const KEY = 'ui-test-control-key-0001';
let sandbox: Sandbox;
let server: SandboxServer;
let receiver: Receiver;
let browser: Browser;
let page: Page;
const consoleErrors: string[] = [];

beforeAll(async () => {
  sandbox = createSandbox(undefined, { controlKey: KEY });
  server = await startSandboxServer({ sandbox, port: 0 });
  receiver = await startReceiver();
  sandbox.updateMerchant('app_demo_shop', { depositWebhookUrl: receiver.url });
  browser = await launchChromium();
  page = await browser.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  sandbox?.close();
  await server?.close();
  await receiver?.close();
});

async function pendingDeposit(reference: string): Promise<string> {
  const wallet = new WalletClient({ apiKey: 'sk_sandbox_demo_shop', baseUrl: server.baseUrl });
  const deposit = await wallet.deposit(
    { reference_id: reference, amount: 500, currency: 'KES', payment_provider: 'mpesa' },
    { userToken: 'tok_sandbox_bob' },
  );
  return deposit.transaction_id;
}

const row = (id: string) =>
  page.locator('tr', { has: page.locator('td', { hasText: new RegExp(`^${id}`) }) });

test('the page, its script and styles weigh under 30 kB gzip and hold no data without the key', async () => {
  let total = 0;
  for (const path of ['/_sandbox/ui', '/_sandbox/ui/app.js', '/_sandbox/ui/app.css']) {
    const response = await fetch(server.baseUrl + path);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    total += gzipSync(Buffer.from(await response.arrayBuffer())).byteLength;
  }
  expect(total).toBeLessThan(30_000);
  const ledger = await fetch(`${server.baseUrl}/_sandbox/ledger`);
  expect(ledger.status).toBe(401);
});

test('a pending deposit is driven to completed and a dropped webhook redelivered through the UI alone, with no console error', async () => {
  const id = await pendingDeposit('ui-order-1');
  await page.goto(`${server.baseUrl}/_sandbox/ui#key=${KEY}`);
  expect(new URL(page.url()).hash).toBe('');
  await expect.poll(() => row(id).locator('td').nth(4).textContent()).toBe('pending');

  // Drop the next webhook, then settle through the page.
  await page.selectOption('#plan-mode', 'drop');
  await page.click('#plan');
  await expect.poll(() => page.textContent('#status')).toBe('next webhook: drop');
  await row(id).getByRole('button', { name: 'Settle' }).click();
  await expect.poll(() => row(id).locator('td').nth(4).textContent()).toBe('completed');
  expect(sandbox.transaction(id)?.transaction_status).toBe('completed');
  const dropped = sandbox.webhooks.deliveries().find((d) => d.state === 'dropped');
  expect(dropped).toBeDefined();
  expect(receiver.received).toHaveLength(0);

  await row(dropped?.id ?? '')
    .getByRole('button', { name: 'Redeliver' })
    .click();
  await expect.poll(() => receiver.received.length).toBe(1);
  expect(receiver.received[0]?.body).toMatchObject({ transaction_id: id, transaction_status: 'completed' });
  await expect.poll(() => page.textContent('#deliveries')).toMatch(/delivered/);
  if (process.env.SANDBOX_UI_SCREENSHOT)
    await page.screenshot({ path: process.env.SANDBOX_UI_SCREENSHOT, fullPage: true });
  expect(consoleErrors).toEqual([]);
}, 60_000);

test('without the key the page asks for it; a wrong key is refused and asked for again', async () => {
  const fresh = await browser.newPage();
  await fresh.goto(`${server.baseUrl}/_sandbox/ui`);
  await expect.poll(() => fresh.isVisible('#key-form')).toBe(true);
  await fresh.fill('#key', 'not-the-key-at-all');
  await fresh.click('#key-form button');
  await expect.poll(() => fresh.isVisible('#key-form')).toBe(true);
  await fresh.fill('#key', KEY);
  await fresh.click('#key-form button');
  await expect.poll(() => fresh.isVisible('#transactions')).toBe(true);
  await fresh.close();
});
