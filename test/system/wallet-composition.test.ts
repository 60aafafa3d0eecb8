/**
 * The newcomer's six requirements, on the composed wallet (`createWallet`), with real PostgreSQL and
 * again on Redis: two instance processes behind a round-robin router, every webhook delivered twice,
 * the login in Chromium, instant and pending deposits, a payout, a revoked token ending in a
 * reconnect, and every instance SIGKILLed while deposits are in flight, restarted later.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { Browser } from 'playwright-core';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createSandbox, type Sandbox, startSandboxServer } from '../../src/testing/index.js';
import { launchChromium } from './chromium.js';
import { type RunningServer, startPostgres, startRedis } from './stores/servers.js';

const instanceScript = fileURLToPath(new URL('./wallet/instance.ts', import.meta.url));
const ALICE = 'alice@example.com';

interface Instance {
  child: ChildProcess;
  port: number;
  output: () => string;
}

function startInstance(env: Record<string, string>): Promise<Instance> {
  const child = spawn(process.execPath, ['--import', 'tsx', instanceScript], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stderr?.on('data', (chunk) => {
    text += chunk;
  });
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk) => {
      text += chunk;
      const port = /port (\d+)/.exec(text)?.[1];
      if (port !== undefined && text.includes('ready'))
        resolve({ child, port: Number(port), output: () => text });
    });
    child.once('exit', (code, signal) => reject(new Error(`instance exited ${code ?? signal}: ${text}`)));
  });
}

/** A round-robin router in front of the instances: each request goes to the next one that is up. */
function startRouter(
  targets: () => readonly Instance[],
): Promise<{ url: string; server: Server; hits: number[] }> {
  let next = 0;
  const hits = [0, 0];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const live = targets();
    const at = next++ % Math.max(1, live.length);
    const target = live[at];
    if (target === undefined) {
      res.writeHead(502).end();
      return;
    }
    hits[at] = (hits[at] ?? 0) + 1;
    try {
      const answer = await fetch(`http://127.0.0.1:${target.port}${req.url}`, {
        method: req.method ?? 'GET',
        headers: { 'content-type': req.headers['content-type'] ?? 'application/json' },
        redirect: 'manual',
        ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body: Buffer.concat(chunks) }),
      });
      const headers: Record<string, string> = {
        'content-type': answer.headers.get('content-type') ?? 'text/plain',
      };
      const location = answer.headers.get('location');
      if (location) headers.location = location;
      res.writeHead(answer.status, headers).end(Buffer.from(await answer.arrayBuffer()));
    } catch {
      res.writeHead(502).end(); // the instance is down: the sender retries
    }
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, hits }),
    ),
  );
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(100)) {
    const value = await probe();
    if (value !== undefined) return value;
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.each(['postgres', 'redis'] as const)('the composed wallet on %s', (kind) => {
  let store: RunningServer;
  let sandbox: Sandbox;
  let sandboxServer: Awaited<ReturnType<typeof startSandboxServer>>;
  let router: Awaited<ReturnType<typeof startRouter>>;
  let browser: Browser;
  let instances: Instance[] = [];
  let env: Record<string, string>;
  /** How many times each reference was fulfilled, as committed (PostgreSQL) or kept (Redis). */
  let fulfilments: () => Promise<Map<string, number>>;
  let closeStore: () => Promise<void>;

  const post = async (path: string, body: object) => {
    const answer = await fetch(`${router.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
  };
  const charges = (reference: string) => sandbox.transactions().filter((t) => t.reference_id === reference);
  const fulfilledOnce = async (reference: string) => {
    const count = await until(`${reference} fulfilled`, async () => (await fulfilments()).get(reference));
    await sleep(300); // a second run, if there were one, has had time to land
    expect([reference, (await fulfilments()).get(reference), count]).toEqual([reference, 1, 1]);
    expect(charges(reference)).toHaveLength(1);
  };
  const connect = async (loginUrl = `${router.url}/wallet/connect?account=acc-${crypto.randomUUID()}`) => {
    const page = await browser.newPage();
    await page.goto(loginUrl);
    await page.getByLabel('E-mail address').fill(ALICE);
    await Promise.all([
      page.waitForURL(/\/wallet\/connected/),
      page.getByRole('button', { name: 'Approve' }).click(),
    ]);
    const answer = JSON.parse((await page.locator('body').textContent()) ?? '{}');
    await page.close();
    return answer;
  };

  beforeAll(async () => {
    store = kind === 'postgres' ? await startPostgres() : await startRedis();
    if (kind === 'postgres') {
      const pool = new pg.Pool({ connectionString: store.url, max: 2 });
      await pool.query(
        'CREATE TABLE IF NOT EXISTS fulfilments (reference text NOT NULL, status text NOT NULL)',
      );
      fulfilments = async () => {
        const { rows } = await pool.query(
          'SELECT reference, count(*)::int AS n FROM fulfilments GROUP BY reference',
        );
        return new Map(rows.map((row: { reference: string; n: number }) => [row.reference, row.n]));
      };
      closeStore = () => pool.end();
    } else {
      const client = await createClient({ url: store.url }).connect();
      // Fulfilment is keyed by reference (HSETNX): the runs themselves are at least once on Redis.
      fulfilments = async () =>
        new Map(Object.keys(await client.hGetAll('fulfilments')).map((reference) => [reference, 1]));
      closeStore = () => client.close();
    }
    sandbox = createSandbox(undefined, { webhooks: { attempts: 8, backoffMs: 250, timeoutMs: 2_000 } });
    sandbox.webhooks.planNext({ mode: 'twice', count: 10_000 });
    sandboxServer = await startSandboxServer({ sandbox, port: 0 });
    router = await startRouter(() => instances);
    sandbox.updateMerchant('app_demo_shop', {
      authWebhookUrl: `${router.url}/wallet/webhooks`,
      depositWebhookUrl: `${router.url}/wallet/webhooks`,
    });
    env = {
      [kind === 'postgres' ? 'DATABASE_URL' : 'REDIS_URL']: store.url,
      WALLET_BASE_URL: sandboxServer.baseUrl,
      ROUTER_URL: router.url,
      TOKEN_KEY: randomBytes(32).toString('base64'),
    };
    instances = [await startInstance(env), await startInstance(env)];
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    for (const one of instances) one.child.kill('SIGKILL');
    await new Promise((resolve) => router?.server.close(resolve));
    sandbox?.close();
    await sandboxServer?.close();
    await closeStore?.();
    await store?.stop();
  });

  test('1. a wallet connects in Chromium, its login requests spread over both instances by the router', async () => {
    expect(await connect()).toEqual({ status: 'connected', email: ALICE });
  });

  test('2. an instant and a pending deposit are each fulfilled exactly once, every webhook delivered twice', async () => {
    const instant = `order-${crypto.randomUUID()}`;
    expect(
      (await post('/pay', { reference: instant, amount: 100, email: ALICE })).body.transaction_status,
    ).toBe('completed');
    const pending = `order-${crypto.randomUUID()}`;
    const started = await post('/pay', {
      reference: pending,
      amount: 9_000,
      email: ALICE,
      provider: 'mpesa',
    });
    expect(started.body.transaction_status).toBe('pending');
    sandbox.settle(String(started.body.transaction_id), { status: 'completed' });
    await fulfilledOnce(instant);
    await fulfilledOnce(pending);
    await sandbox.webhooks.idle();
    const copies = sandbox.webhooks
      .deliveries()
      .filter((one) => (one.event as { reference_id?: string }).reference_id === pending);
    expect(copies.length).toBeGreaterThanOrEqual(2);
  });

  test('3. a payout is paid and fulfilled once', async () => {
    const reference = `payout-${crypto.randomUUID()}`;
    expect((await post('/payout', { reference, amount: 50, email: ALICE })).body.transaction_status).toBe(
      'completed',
    );
    await fulfilledOnce(reference);
  });

  test('4. a revoked token ends in a reconnect and a successful payment', async () => {
    sandbox.revoke({ email: ALICE });
    const refused = await post('/pay', {
      reference: `order-${crypto.randomUUID()}`,
      amount: 100,
      email: ALICE,
    });
    // The error carries the login bound to the user: the reconnect is one trip through it.
    expect(String(refused.body.loginUrl)).toContain(`${sandboxServer.authUrl}/login?`);
    expect(await connect(String(refused.body.loginUrl))).toEqual({ status: 'connected', email: ALICE });
    const reference = `order-${crypto.randomUUID()}`;
    expect((await post('/pay', { reference, amount: 100, email: ALICE })).body.transaction_status).toBe(
      'completed',
    );
    await fulfilledOnce(reference);
  });

  test('5. both instances served behind the round-robin router', () => {
    expect(router.hits.every((hits) => hits > 0)).toBe(true);
  });

  test('6. every instance SIGKILLed with deposits in flight, restarted later: each fulfilled once, none charged twice, none left', async () => {
    const fault = sandbox.faults.inject({ route: 'deposit', kind: 'latency', ms: 600, times: 3 });
    const references = [0, 1, 2].map(() => `order-${crypto.randomUUID()}`);
    const calls = references.map((reference, at) =>
      post('/pay', {
        reference,
        amount: at === 2 ? 9_000 : 100,
        email: ALICE,
        ...(at === 2 && { provider: 'mpesa' }),
      }).catch(() => undefined),
    );
    await sleep(200); // recorded, and on the wire
    for (const one of instances) one.child.kill('SIGKILL');
    const killed = instances;
    instances = [];
    await Promise.all(calls);
    await sleep(1_500); // every instance down while the service applies what it received
    fault.remove();
    instances = [await startInstance(env), await startInstance(env)];
    expect(killed.every((one) => one.child.signalCode === 'SIGKILL')).toBe(true);
    // The pending one is settled by its provider once the shop is back.
    const pendingCharge = await until(
      'the pending deposit at the service',
      async () => charges(references[2] as string)[0],
    );
    sandbox.settle(pendingCharge.transaction_id, { status: 'completed' });
    for (const reference of references) await fulfilledOnce(reference);
  }, 60_000);
});
