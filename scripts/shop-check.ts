/**
 * `npm run shop:check`: drives examples/shop end to end in headless Chromium (playwright-core and
 * /usr/bin/chromium), with the shop running as a child process, exactly as `npm run example:shop`
 * starts it. Two runs:
 *
 * - embedded defaults: the shop's own sandbox and memory stores (its control API on, so this
 *   script can revoke a token, drop a webhook and read the ledger);
 * - PostgreSQL (a real server from test/system/stores/servers.ts) with the sandbox in this process,
 *   so it outlives the shop: this run also SIGKILLs the shop while a deposit waits for its answer,
 *   restarts it, and checks that recovery makes the order paid exactly once;
 * - Redis (a real redis-server) for the journal, dedupe and token stores, on the shop's own sandbox.
 *
 * The embedded and PostgreSQL runs also drop a pending deposit's result webhook and check that the
 * shop's sweeper settles it.
 *
 * `npx tsx scripts/shop-check.ts embedded|postgres|redis` runs one of them.
 * Prints `shop: N passed, M failed` and exits 1 on any failure. Builds dist/ first when it is missing.
 */
import { type ChildProcess, execSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import type { PaymentIntent } from '../src/index.js';
import { createPostgresJournal } from '../src/stores/postgres/index.js';
import { createSandbox, type Sandbox, startSandboxServer } from '../src/testing/index.js';
import { launchChromium } from '../test/system/chromium.js';
import { startPostgres, startRedis } from '../test/system/stores/servers.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const ALICE = 'alice@example.com';
const CONTROL_KEY = 'shop-check-control-key';
const results: { name: string; error?: unknown }[] = [];

interface Shop {
  readonly url: string;
  readonly walletUrl: string;
  readonly child: ChildProcess;
  output(): string;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts the shop as `npm run example:shop` does (without npm in between, so a SIGKILL reaches it). */
async function startShop(env: Record<string, string>): Promise<Shop> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/shop/main.ts'], {
    cwd: root,
    env: { ...process.env, ...env, TSX_TSCONFIG_PATH: 'examples/shop/tsconfig.json' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout.on('data', (chunk) => (text += chunk));
  child.stderr.on('data', (chunk) => (text += chunk));
  for (const deadline = Date.now() + 30_000; !/^shop http/m.test(text); await sleep(50)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the shop did not start:\n${text}`);
  }
  const line = (name: string) => new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] as string;
  return { url: line('shop'), walletUrl: line('wallet'), child, output: () => text };
}

async function stopShop(shop: Shop, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (shop.child.exitCode !== null || shop.child.signalCode !== null) return;
  const exited = new Promise((resolve) => shop.child.once('exit', resolve));
  shop.child.kill(signal);
  await exited;
}

/** The sandbox's control API (docs/sandbox.md), wherever the sandbox runs. */
function control(walletUrl: string) {
  return async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${walletUrl}/_sandbox${path}`, {
      method,
      headers: { 'x-sandbox-key': CONTROL_KEY, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok)
      throw new Error(`control ${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, unknown>;
  };
}

type Control = ReturnType<typeof control>;
type Ledger = { reference_id?: string; transaction_id: string; transaction_status: string }[];

const ledgerFor = async (sandbox: Control, reference: string) =>
  ((await sandbox('GET', '/ledger')).transactions as Ledger).filter((t) => t.reference_id === reference);

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

async function scenario(name: string, run: () => Promise<void>): Promise<void> {
  try {
    await run();
    results.push({ name });
    process.stdout.write(`  ok    ${name}\n`);
  } catch (error) {
    results.push({ name, error });
    process.stdout.write(`  FAIL  ${name}: ${error instanceof Error ? error.message : String(error)}\n`);
  }
}

async function approve(page: Page, email: string): Promise<void> {
  check((await page.title()) === 'Sign in to Merchant Wallet', `not the login page: ${await page.title()}`);
  await page.getByLabel('E-mail address').fill(email);
  await Promise.all([
    page.waitForURL(/\/wallet\/connected/),
    page.getByRole('button', { name: 'Approve' }).click(),
  ]);
  await page.getByRole('heading', { level: 1, name: 'Wallet connected' }).waitFor({ timeout: 10_000 });
}

/** Buys a product and waits for its order page to say it is paid; returns the order id. */
async function buy(page: Page, shop: Shop, product: string, during?: (page: Page) => Promise<void>) {
  await page.goto(shop.url);
  await Promise.all([
    page.waitForURL(/\/orders\//),
    page.getByRole('button', { name: `Buy ${product}` }).click(),
  ]);
  const id = new URL(page.url()).pathname.split('/').pop() as string;
  await during?.(page);
  await page.getByRole('status').filter({ hasText: 'Paid. Thank you!' }).waitFor({ timeout: 15_000 });
  return id;
}

const fulfilments = (output: string, id: string) =>
  output.split('\n').filter((l) => l === `fulfilled ${id}`).length;

async function paidOnce(sandbox: Control, outputs: string, id: string, status = 'completed') {
  const ledger = await ledgerFor(sandbox, `order-${id}`);
  check(ledger.length === 1, `${ledger.length} transactions for order-${id}`);
  check(ledger[0]?.transaction_status === status, `transaction ${ledger[0]?.transaction_status}`);
  check(fulfilments(outputs, id) === 1, `order ${id} fulfilled ${fulfilments(outputs, id)} times`);
}

/** The scenarios every run has: connect, two deposits, a payout, revoke and reconnect. */
async function walkThrough(browser: Browser, shop: Shop, sandbox: Control): Promise<Page> {
  const page = await browser.newPage();
  await scenario('connect a wallet', async () => {
    await page.goto(shop.url);
    await page.getByRole('link', { name: 'Connect your wallet' }).click();
    await approve(page, ALICE);
    check((await page.locator('main').textContent())?.includes(`Connected ${ALICE}`), 'no connected e-mail');
  });
  await scenario('an instant deposit, paid from the wallet', async () => {
    const id = await buy(page, shop, 'Coffee beans, 1 kg');
    await paidOnce(sandbox, shop.output(), id);
  });
  await scenario('a pending deposit through the provider, settled by its webhook', async () => {
    let sawPending = false;
    const id = await buy(page, shop, 'Espresso machine', async () => {
      sawPending = (await page.getByRole('status').textContent())?.includes('approve the payment') ?? false;
    });
    check(sawPending, 'the order page never showed the pending state');
    await paidOnce(sandbox, shop.output(), id);
    const [transaction] = await ledgerFor(sandbox, `order-${id}`);
    const { deliveries } = (await sandbox('GET', '/webhooks')) as {
      deliveries: { state: string; event: { transaction_id?: string } }[];
    };
    const hooks = deliveries.filter((d) => d.event.transaction_id === transaction?.transaction_id);
    check(
      hooks.some((d) => d.state === 'delivered'),
      'its webhook was not delivered to the shop',
    );
  });
  await scenario('a payout to the customer', async () => {
    await page.goto(`${shop.url}/payouts`);
    await page.getByLabel('Customer e-mail').fill(ALICE);
    await page.getByLabel('Amount (KES)').fill('250');
    await Promise.all([
      page.waitForURL(/\/payouts$/),
      page.getByRole('button', { name: 'Send payout' }).click(),
    ]);
    const line = await page.getByRole('listitem').filter({ hasText: ALICE }).last().textContent();
    check(line?.includes('KES 250.00') && line.endsWith('paid'), `payout line: ${line}`);
    const id = (line ?? '').split(':')[0] as string;
    const ledger = await ledgerFor(sandbox, `payout-${id}`);
    check(ledger.length === 1 && ledger[0]?.transaction_status === 'completed', 'no completed withdrawal');
  });
  await scenario('a revoked wallet asks to reconnect, and pays after reconnecting', async () => {
    await sandbox('POST', '/tokens/revoke', { email: ALICE });
    await page.goto(shop.url);
    await page.getByRole('button', { name: 'Buy Coffee beans, 1 kg' }).click();
    await page.getByRole('heading', { level: 1, name: 'Reconnect your wallet' }).waitFor();
    await page.getByRole('link', { name: 'Reconnect your wallet' }).click();
    await approve(page, ALICE);
    const id = await buy(page, shop, 'Coffee beans, 1 kg');
    await paidOnce(sandbox, shop.output(), id);
  });
  return page;
}

/** The operator page's "Settled" time of a payment among its recent ones. */
async function settledOnOperatorPage(page: Page, shop: Shop, reference: string): Promise<string> {
  await page.goto(`${shop.url}/operator`);
  const row = page.getByRole('row').filter({ hasText: reference }).last();
  const settled = (await row.getByRole('cell').nth(4).textContent()) ?? '';
  await page.goBack();
  return settled;
}

/** A pending deposit whose result webhook the sandbox drops: only the sweeper can settle it. */
async function lostCallback(page: Page, shop: Shop, sandbox: Control, settledAt = settledOnOperatorPage) {
  await scenario('a deposit whose callback never arrives, settled by the sweeper', async () => {
    await sandbox('POST', '/webhooks/plan', { mode: 'drop', event: 'transaction' });
    const id = await buy(page, shop, 'Espresso machine');
    const reference = `order-${id}`;
    await paidOnce(sandbox, shop.output(), id);
    const [transaction] = await ledgerFor(sandbox, reference);
    const { deliveries } = (await sandbox('GET', '/webhooks')) as {
      deliveries: { state: string; event: { transaction_id?: string } }[];
    };
    const states = deliveries
      .filter((d) => d.event.transaction_id === transaction?.transaction_id)
      .map((d) => d.state);
    check(states.length > 0 && states.every((state) => state === 'dropped'), `its webhooks: ${states}`);
    check(
      new RegExp(`^swept ${reference} read completed$`, 'm').test(shop.output()),
      'the sweeper did not read it completed',
    );
    const settled = await settledAt(page, shop, reference);
    check(!Number.isNaN(Date.parse(settled)), `the journal intent has no settledAt (${settled})`);
  });
}

/** A run on the shop's own sandbox: memory stores, or Redis ones with `REDIS_URL`. */
async function embeddedRun(browser: Browser, label: string, env: Record<string, string> = {}): Promise<void> {
  process.stdout.write(`${label}\n`);
  const shop = await startShop({ PORT: String(await freePort()), SANDBOX_CONTROL_KEY: CONTROL_KEY, ...env });
  try {
    const page = await walkThrough(browser, shop, control(shop.walletUrl));
    await lostCallback(page, shop, control(shop.walletUrl));
    await page.close();
  } finally {
    await stopShop(shop);
  }
}

async function redisRun(browser: Browser): Promise<void> {
  const redis = await startRedis();
  try {
    const env = { REDIS_URL: redis.url, TOKEN_KEY: randomBytes(32).toString('base64') };
    await embeddedRun(browser, 'Redis (journal, dedupe, tokens), the shop’s own sandbox', env);
  } finally {
    await redis.stop();
  }
}

/**
 * Waits for the result webhook of `referenceId` to be delivered. When its attempt found the shop
 * down, the service tries again on its schedule (a minute later at first): the sandbox's clock is
 * moved to that attempt, as the time passing would.
 */
async function nextAttemptOf(sandbox: Sandbox, referenceId: string): Promise<void> {
  for (const deadline = Date.now() + 20_000; Date.now() < deadline; await sleep(100)) {
    const delivery = sandbox.webhooks
      .deliveries()
      .find((d) => d.event.event === 'transaction' && d.event.reference_id === referenceId);
    if (delivery?.state === 'delivered') return;
    if (delivery?.state === 'scheduled' && delivery.nextAttemptAt !== undefined) {
      sandbox.clock.advance(Math.max(0, delivery.nextAttemptAt.getTime() - sandbox.clock.now().getTime()));
    }
  }
  check(false, `the result webhook of ${referenceId} was never delivered`);
}

async function postgresRun(browser: Browser): Promise<void> {
  process.stdout.write('PostgreSQL (journal, dedupe, tokens and orders), the sandbox outside the shop\n');
  const postgres = await startPostgres();
  const pool = new pg.Pool({ connectionString: postgres.url, max: 2 });
  // The sandbox's default retry schedule, like the service's: a webhook that finds every instance
  // down is tried again a minute later, then at growing gaps over hours.
  const sandbox = createSandbox(undefined, { autoSettleMs: 3_000, controlKey: CONTROL_KEY });
  const server = await startSandboxServer({ sandbox, port: 0 });
  const port = await freePort();
  const env = {
    PORT: String(port),
    DATABASE_URL: postgres.url,
    TOKEN_KEY: randomBytes(32).toString('base64'),
    WALLET_BASE_URL: server.baseUrl,
    WALLET_API_KEY: 'sk_sandbox_demo_shop',
  };
  // What a merchant sets once in the wallet's portal.
  const hook = `http://127.0.0.1:${port}/wallet/webhook`;
  sandbox.updateMerchant('app_demo_shop', { authWebhookUrl: hook, depositWebhookUrl: hook });
  let shop = await startShop(env);
  let outputs = '';
  try {
    const page = await walkThrough(browser, shop, control(server.baseUrl));
    const journal = createPostgresJournal({ db: pool });
    await lostCallback(page, shop, control(server.baseUrl), async (page, shop, reference) => {
      const onPage = await settledOnOperatorPage(page, shop, reference);
      const stored = (await journal.get(reference))?.settledAt ?? '';
      check(onPage === stored, `the operator page says settled ${onPage}, the journal ${stored}`);
      return stored;
    });
    await scenario('a shop killed mid-payment recovers on restart and fulfils the order once', async () => {
      // The deposit's answer takes 5 s: the shop is killed while it waits for it.
      sandbox.faults.inject({ route: 'deposit', kind: 'latency', ms: 5_000 });
      await page.goto(shop.url);
      const click = page
        .getByRole('button', { name: 'Buy Coffee beans, 1 kg' })
        .click()
        .catch(() => {});
      let intent: PaymentIntent | undefined;
      for (
        const deadline = Date.now() + 10_000;
        intent === undefined && Date.now() < deadline;
        await sleep(20)
      )
        intent = (await journal.list('sending')).find((i) => i.referenceId.startsWith('order-'));
      check(intent !== undefined, 'no deposit was being sent');
      await stopShop(shop, 'SIGKILL');
      await click;
      outputs += shop.output();
      shop = await startShop(env);
      const id = intent.referenceId.slice('order-'.length);
      await nextAttemptOf(sandbox, intent.referenceId);
      await page.goto(`${shop.url}/orders/${id}`);
      await page.getByRole('status').filter({ hasText: 'Paid. Thank you!' }).waitFor({ timeout: 30_000 });
      await sleep(6_000); // past the first attempt's delayed answer and any webhook redelivery
      await paidOnce(control(server.baseUrl), outputs + shop.output(), id);
      check(
        (await journal.get(intent.referenceId))?.state === 'completed',
        'the journal intent is not completed',
      );
      // Settled by whichever came first: the deposit's webhook, delivered again to the restarted shop,
      // or the re-send the restart rule allows once no call could still be sending it.
      check(
        (await journal.get(intent.referenceId))?.settledAt !== undefined,
        'the interrupted deposit was not settled after the restart',
      );
    });
    await page.close();
  } finally {
    await stopShop(shop);
    sandbox.close();
    await server.close();
    await pool.end();
    await postgres.stop();
  }
}

if (!existsSync(`${root}/dist/index.js`)) execSync('npm run build', { cwd: root, stdio: 'inherit' });
const browser = await launchChromium();
try {
  const only = process.argv[2];
  if (only === undefined || only === 'embedded')
    await embeddedRun(browser, 'embedded defaults (memory stores, the shop’s own sandbox)');
  if (only === undefined || only === 'postgres') await postgresRun(browser);
  if (only === undefined || only === 'redis') await redisRun(browser);
} finally {
  await browser.close();
}
const failed = results.filter((r) => r.error !== undefined).length;
process.stdout.write(`shop: ${results.length - failed} passed, ${failed} failed\n`);
process.exit(failed === 0 && results.length > 0 ? 0 : 1);
