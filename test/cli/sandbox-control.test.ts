import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { WalletClient } from '../../src/index.js';
import { type Receiver, startReceiver } from '../testing/helpers.js';
import { CONTROL_KEY, DEMO_KEY, runCli, startCliSandbox } from './helpers.js';

type CliSandbox = Awaited<ReturnType<typeof startCliSandbox>>;

let receiver: Receiver;
let sandbox: CliSandbox;
/** Everything the running sandbox printed after its banner. */
let log: string;

beforeEach(async () => {
  receiver = await startReceiver();
  sandbox = await startCliSandbox(['--webhook-url', receiver.url, '--auto-settle-ms', '600000']);
  log = '';
  sandbox.child.stdout.on('data', (chunk: Buffer | string) => {
    log += String(chunk);
  });
});
afterEach(async () => {
  sandbox.child.kill('SIGINT');
  await sandbox.done;
  await receiver.close();
});

/** A loopback port nothing listens on. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const env = () => ({ WALLET_SANDBOX_KEY: CONTROL_KEY, WALLET_BASE_URL: sandbox.baseUrl });

async function pendingDeposit(reference: string): Promise<string> {
  const wallet = new WalletClient({ apiKey: DEMO_KEY, baseUrl: sandbox.baseUrl });
  const result = await wallet.deposit(
    { reference_id: reference, amount: 500, currency: 'KES', payment_provider: 'mpesa' },
    { userToken: 'tok_sandbox_bob' },
  );
  return result.transaction_id;
}

describe('merchant-wallet sandbox <action> against a running sandbox', () => {
  test('the banner names the webhook URL given with --webhook-url', () => {
    expect(sandbox.banner).toContain(
      `webhooks     user_authorized → ${receiver.url}\n             deposit results → ${receiver.url}\n`,
    );
  });

  test('settle ends a pending deposit; the sandbox prints the webhook attempt and the merchant receives it', async () => {
    const id = await pendingDeposit('cli-1');
    expect(await runCli(['sandbox', 'settle', id], { env: env() })).toEqual({
      code: 0,
      stdout: `${id} completed\n`,
      stderr: '',
    });
    await expect.poll(() => receiver.received.length).toBe(1);
    await expect
      .poll(() => log)
      .toContain(`webhook whd_1 transaction → ${receiver.url}: HTTP 200, attempt 1\n`);
    expect(log).toContain(`deposit ${id} completed\n`);
  });

  test('settle --status failed --reason, with a late delivery that advance releases', async () => {
    const id = await pendingDeposit('cli-2');
    const settled = await runCli(
      [
        'sandbox',
        'settle',
        id,
        '--status',
        'failed',
        '--reason',
        'user cancelled',
        '--delivery',
        'late',
        '--delay',
        '30s',
      ],
      { env: env() },
    );
    expect(settled.stdout).toBe(`${id} failed (user cancelled)\n`);
    const held = new RegExp(
      `^webhook whd_1 transaction → ${receiver.url.replace(/[.?]/g, '\\$&')}: held until (\\S+) \\(late\\)$`,
      'm',
    );
    await expect.poll(() => held.test(log)).toBe(true);
    const until = Date.parse(held.exec(log)?.[1] ?? '');
    const ledgerAt = Date.now();
    expect(until - ledgerAt).toBeGreaterThan(25_000);
    expect(until - ledgerAt).toBeLessThanOrEqual(30_000);
    const advanced = await runCli(['sandbox', 'advance', '30s'], { env: env() });
    expect(advanced.stdout).toMatch(/^clock \S+ \(\+30000 ms\); 1 timed event\(s\) ran, 0 waiting\n$/);
    await expect.poll(() => receiver.received.length).toBe(1);
    expect(receiver.received[0]?.body).toMatchObject({
      transaction_status: 'failed',
      failure_reason: 'user cancelled',
    });
  });

  test('webhooks prints the delivery log as JSON and redeliver sends one again', async () => {
    const id = await pendingDeposit('cli-3');
    await runCli(['sandbox', 'settle', id], { env: env() });
    await expect.poll(() => receiver.received.length).toBe(1);
    expect((await runCli(['sandbox', 'redeliver', 'whd_1'], { env: env() })).stdout).toBe(
      'redelivering as whd_2\n',
    );
    await expect.poll(() => receiver.received.length).toBe(2);
    const logRun = await runCli(['sandbox', 'webhooks'], { env: env() });
    const deliveries = (JSON.parse(logRun.stdout) as { deliveries: { id: string; state: string }[] })
      .deliveries;
    expect(deliveries.map((d) => [d.id, d.state])).toEqual([
      ['whd_1', 'delivered'],
      ['whd_2', 'delivered'],
    ]);
  });

  test('approving a login prints the new token and says the banner token no longer works', async () => {
    const form = new URLSearchParams({
      app_id: 'app_demo_shop',
      redirect_url: 'https://shop.example/done',
      email: 'alice@example.com',
      decision: 'approve',
    });
    const answer = await fetch(`${sandbox.baseUrl}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
      redirect: 'manual',
    });
    expect(answer.status).toBe(303);
    const token = (receiver.received[0]?.body as { token?: string } | undefined)?.token;
    expect(token).toMatch(/^tok_/);
    await expect
      .poll(() => log)
      .toContain(
        `login approved: alice@example.com for app_demo_shop, new token ${token}; tok_sandbox_alice no longer works → user_authorized to ${receiver.url}\n`,
      );
  });

  test('a wrong key, a missing key and an unreachable sandbox are one error line each, exit 1', async () => {
    const closedPort = await freePort();
    const runs = await Promise.all([
      runCli(['sandbox', 'ledger'], { env: { ...env(), WALLET_SANDBOX_KEY: 'sbx_wrong_key_000000' } }),
      runCli(['sandbox', 'ledger'], { env: { WALLET_BASE_URL: sandbox.baseUrl } }),
      runCli(['sandbox', 'reset'], { env: { ...env(), WALLET_BASE_URL: `http://127.0.0.1:${closedPort}` } }),
    ]);
    expect(runs).toEqual([
      {
        code: 1,
        stdout: '',
        stderr: 'error: the sandbox refused WALLET_SANDBOX_KEY: use the key its banner prints\n',
      },
      {
        code: 1,
        stdout: '',
        stderr: 'error: WALLET_SANDBOX_KEY is not set: export the control key the sandbox banner prints\n',
      },
      {
        code: 1,
        stdout: '',
        stderr: `error: cannot reach the sandbox at 127.0.0.1:${closedPort} (ECONNREFUSED): is "merchant-wallet sandbox" running?\n`,
      },
    ]);
  });

  test('balance, next-webhook drop, fault and reset drive the running sandbox', async () => {
    expect(
      (await runCli(['sandbox', 'balance', 'KES', '20', '--email', 'bob@example.com'], { env: env() }))
        .stdout,
    ).toBe('bob@example.com: KES 20\n');
    await runCli(['sandbox', 'next-webhook', 'drop'], { env: env() });
    const id = await pendingDeposit('cli-4');
    await runCli(['sandbox', 'settle', id], { env: env() });
    const ledger = JSON.parse((await runCli(['sandbox', 'ledger'], { env: env() })).stdout) as {
      balances: { users: Record<string, Record<string, number>> };
    };
    expect(ledger.balances.users['bob@example.com']?.KES).toBe(20);
    const faulted = await runCli(
      ['sandbox', 'fault', '{"kind":"error","code":"psp_error","route":"status"}'],
      {
        env: env(),
      },
    );
    expect(faulted.stdout).toBe('fault armed; 1 armed in all\n');
    const status = await runCli(['status', id], { env: { ...env(), WALLET_API_KEY: DEMO_KEY } });
    expect(status.code).toBe(1);
    expect((await runCli(['sandbox', 'reset'], { env: env() })).stdout).toBe('sandbox reset to its seed\n');
    expect(receiver.received).toEqual([]);
  });

  test('a dropped delivery is printed in the sandbox terminal although nothing is sent', async () => {
    await runCli(['sandbox', 'next-webhook', 'drop'], { env: env() });
    const id = await pendingDeposit('cli-drop');
    await runCli(['sandbox', 'settle', id], { env: env() });
    await expect.poll(() => log).toContain(`webhook whd_1 transaction → ${receiver.url}: dropped (plan)\n`);
    expect(receiver.received).toEqual([]);
  });

  test('reset says so in the sandbox terminal, and webhook delivery ids keep counting after it', async () => {
    const before = await pendingDeposit('cli-reset-1');
    await runCli(['sandbox', 'settle', before], { env: env() });
    await expect.poll(() => log).toContain('webhook whd_1 transaction');
    expect((await runCli(['sandbox', 'reset'], { env: env() })).code).toBe(0);
    await expect.poll(() => log).toContain('sandbox reset to its seed\n');
    const after = await pendingDeposit('cli-reset-2');
    await runCli(['sandbox', 'settle', after], { env: env() });
    await expect
      .poll(() => log)
      .toContain(`webhook whd_2 transaction → ${receiver.url}: HTTP 200, attempt 1\n`);
    const logRun = await runCli(['sandbox', 'webhooks'], { env: env() });
    const { deliveries } = JSON.parse(logRun.stdout) as { deliveries: { id: string }[] };
    expect(deliveries.map((d) => d.id)).toEqual(['whd_2']);
  });

  test('the sandbox user example of docs/cli.md adds a user whose scenario deposit goes pending', async () => {
    const docs = await readFile(new URL('../../docs/cli.md', import.meta.url), 'utf8');
    const json =
      /echo '(\{"email":"dave@example\.com".*\})' \\\n {2}\| npx merchant-wallet sandbox user - --token-for app_demo_shop/.exec(
        docs,
      )?.[1];
    expect(json).toBeDefined();
    const added = await runCli(['sandbox', 'user', '-', '--token-for', 'app_demo_shop'], {
      env: env(),
      stdin: json ?? '',
    });
    expect(added.code).toBe(0);
    const token = /^user dave@example\.com saved; token (\S+)$/m.exec(added.stdout)?.[1] ?? '';
    const wallet = new WalletClient({ apiKey: DEMO_KEY, baseUrl: sandbox.baseUrl });
    const deposit = await wallet.deposit(
      { reference_id: 'dave-1', amount: 500, currency: 'KES', payment_provider: 'mpesa' },
      { userToken: token },
    );
    expect(deposit.transaction_status).toBe('pending');
  });

  test('webhook-url changes where webhooks go while the sandbox runs', async () => {
    const other = await startReceiver();
    try {
      const set = await runCli(['sandbox', 'webhook-url', other.url], { env: env() });
      expect(set.stdout).toBe(
        `app_demo_shop: user_authorized → ${other.url}, deposit results → ${other.url}\n`,
      );
      const id = await pendingDeposit('cli-5');
      await runCli(['sandbox', 'settle', id], { env: env() });
      await expect.poll(() => other.received.length).toBe(1);
      expect(receiver.received).toEqual([]);
    } finally {
      await other.close();
    }
  });

  test('usage errors point at the command help', async () => {
    const run = await runCli(['sandbox', 'settle', 'txn_1', '--reason', 'x'], { env: env() });
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: --reason goes with --status failed\nRun "merchant-wallet sandbox settle --help" for usage.\n',
    });
    const help = await runCli(['sandbox', 'advance', '--help']);
    expect(help.stdout).toMatch(/^Usage: merchant-wallet sandbox advance <duration>/);
  });
});
