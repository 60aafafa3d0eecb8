import { createServer } from 'node:net';
import { describe, expect, test } from 'vitest';
import { WalletClient } from '../../src/index.js';
import { ALICE_TOKEN, CONTROL_KEY, DEMO_KEY, runCli, startCliSandbox } from './helpers.js';

function expectedBanner(baseUrl: string, errorShape: string, autoSettleMs: number): string {
  return `Merchant Wallet sandbox (fake data, in memory)
base URL     ${baseUrl}
auth URL     ${baseUrl}/auth  (authUrl for buildLoginUrl; not a page itself)
login page   ${baseUrl}/auth/login?app_id=app_demo_shop&redirect_url=${encodeURIComponent(`${baseUrl}/auth/connected`)}
             (lands on this sandbox's own page; restart with --redirect-url URL for your app's, or run
             npx merchant-wallet login-url --auth-url ${baseUrl}/auth --app-id app_demo_shop --redirect-url URL)
error shape  ${errorShape}
auto-settle  pending deposits settle ${autoSettleMs} ms after they start (sandbox clock)
webhooks     none set: approved logins and deposit results are sent nowhere;
             restart with --webhook-url URL or run "merchant-wallet sandbox webhook-url URL"
control key  ${CONTROL_KEY}
browser UI   ${baseUrl}/_sandbox/ui#key=${CONTROL_KEY}

merchants (name, app id, API key)
  Demo Shop    app_demo_shop    sk_sandbox_demo_shop
  Other Shop   app_other_shop   sk_sandbox_other_shop
  Closed Shop  app_closed_shop  sk_sandbox_closed_shop  inactive

users (email, wallet balances, providers)
  alice@example.com  KES 5000, UGX 20000, TZS 10000  mpesa, airtel
  bob@example.com    KES 100                         mpesa, airtel, flakypay, declinepay
  carol@example.com  KES 1000                        mpesa                                inactive

user tokens (token, email, app id)
  tok_sandbox_alice        alice@example.com  app_demo_shop
  tok_sandbox_bob          bob@example.com    app_demo_shop
  tok_sandbox_carol        carol@example.com  app_demo_shop
  tok_sandbox_alice_other  alice@example.com  app_other_shop

scenario tokens (a deposit with payment_provider mpesa ends by itself like this)
  tok_scenario_cancelled     +254799000001  the user cancels on the phone: failed after 5 s
  tok_scenario_insufficient  +254799000002  the provider account is short: failed after 3 s
  tok_scenario_timeout       +254799000003  the provider never answers the wallet: failed after 60 s
  tok_scenario_late          +254799000004  completed after 6 min, past the default polling timeout
  tok_scenario_twice         +254799000005  completed after 2 s; the callback arrives twice
  tok_scenario_silent        +254799000006  completed after 2 s; the callback never arrives (poll the status)

Try it:
  export WALLET_BASE_URL=${baseUrl} WALLET_API_KEY=sk_sandbox_demo_shop WALLET_SANDBOX_KEY=${CONTROL_KEY}
  npx merchant-wallet sandbox settle <transaction_id>    (also: advance 60s, webhooks, ledger, --help)

Press Ctrl-C to stop.
`;
}

/** Submits the login form of `loginPage` for alice, as the browser would, following the redirect or not. */
async function approve(loginPage: string, decision = 'approve', redirect: RequestRedirect = 'follow') {
  const url = new URL(loginPage);
  return fetch(new URL('/auth/login', url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      app_id: url.searchParams.get('app_id') ?? '',
      redirect_url: url.searchParams.get('redirect_url') ?? '',
      email: 'alice@example.com',
      decision,
    }).toString(),
    redirect,
  });
}

describe('merchant-wallet sandbox', () => {
  test('serves the default seed on loopback, prints its fake credentials, and stops cleanly on SIGINT', async () => {
    const { child, done, banner, baseUrl } = await startCliSandbox([]);
    expect(banner).toBe(expectedBanner(baseUrl, 'code', 60000));
    const wallet = new WalletClient({ apiKey: DEMO_KEY, baseUrl });
    const deposit = await wallet.deposit(
      { reference_id: 'order-1', amount: 150, currency: 'KES' },
      { userToken: ALICE_TOKEN },
    );
    expect(deposit.transaction_status).toBe('completed');
    const loginPage = /^login page {3}(\S+)$/m.exec(banner)?.[1] ?? '';
    const page = await fetch(loginPage);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Demo Shop');
    // Approving on the printed page ends on a page that exists: the sandbox's own.
    const approved = await approve(loginPage);
    expect(approved.url).toBe(`${baseUrl}/auth/connected`);
    expect(approved.status).toBe(200);
    expect(await approved.text()).toContain('<h1>Access approved</h1>');
    const printedCommand = /^ {13}npx merchant-wallet (login-url .*)\)$/m.exec(banner)?.[1] ?? '';
    const built = await runCli([...printedCommand.split(' ').slice(0, -1), `${baseUrl}/auth/connected`]);
    expect(built).toEqual({ code: 0, stdout: `${loginPage}\n`, stderr: '' });
    child.kill('SIGINT');
    const { code, stdout, stderr } = await done;
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout.startsWith(banner)).toBe(true);
    expect(stdout.slice(banner.length)).toMatch(
      /^login approved: alice@example\.com for app_demo_shop, new token \S+; .*\nSIGINT: sandbox stopped\n$/,
    );
    await expect(fetch(baseUrl)).rejects.toThrow();
  });

  test('--error-shape and --auto-settle-ms configure the sandbox, and SIGTERM stops it too', async () => {
    const { child, done, banner, baseUrl } = await startCliSandbox([
      '--error-shape',
      'errors-array',
      '--auto-settle-ms',
      '50',
    ]);
    expect(banner).toBe(expectedBanner(baseUrl, 'errors-array', 50));
    const missing = await fetch(`${baseUrl}/merchants/transactions/status/txn_999999`, {
      headers: { 'x-api-key': DEMO_KEY },
    });
    expect(await missing.json()).toEqual({
      errors: [{ code: 'transaction_not_found', message: expect.any(String) }],
    });
    const wallet = new WalletClient({ apiKey: DEMO_KEY, baseUrl });
    const pending = await wallet.deposit(
      { reference_id: 'order-2', amount: 8000, currency: 'KES', payment_provider: 'mpesa' },
      { userToken: ALICE_TOKEN },
    );
    expect(pending.transaction_status).toBe('pending');
    const final = await wallet.waitForTransaction(pending.transaction_id, {
      initialDelayMs: 20,
      timeoutMs: 5000,
    });
    expect(final.transaction_status).toBe('completed');
    child.kill('SIGTERM');
    expect(await done).toEqual({
      code: 0,
      stdout: `${banner}deposit ${pending.transaction_id} completed\nSIGTERM: sandbox stopped\n`,
      stderr: '',
    });
  });

  test('--redirect-url is where the printed login page lands after Approve, and Deny adds error=access_denied', async () => {
    const app = 'http://127.0.0.1:3000/wallet/connected?state=s1';
    const { child, done, banner, baseUrl } = await startCliSandbox(['--redirect-url', app]);
    const loginPage = /^login page {3}(\S+)$/m.exec(banner)?.[1] ?? '';
    expect(new URL(loginPage).searchParams.get('redirect_url')).toBe(app);
    expect(banner).toContain(`\n             (lands on ${app}; for another page run\n`);
    const approved = await approve(loginPage, 'approve', 'manual');
    expect([approved.status, approved.headers.get('location')]).toEqual([303, app]);
    const denied = await approve(loginPage, 'deny', 'manual');
    expect(denied.headers.get('location')).toBe(`${app}&error=access_denied`);
    child.kill('SIGINT');
    expect((await done).code).toBe(0);
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:/);
  });

  test('a port in use is one error line and exit 1', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    try {
      expect(await runCli(['sandbox', '--port', String(port)])).toEqual({
        code: 1,
        stdout: '',
        stderr: `error: port ${port} on 127.0.0.1 is in use: pick another with --port, or --port 0 for any free one\n`,
      });
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  test('an unknown error shape, a bad port, a positional argument and a non-http webhook URL are usage errors', async () => {
    const hint = 'Run "merchant-wallet sandbox --help" for usage.\n';
    const runs = await Promise.all([
      runCli(['sandbox', '--error-shape', 'xml']),
      runCli(['sandbox', '--port', '70000']),
      runCli(['sandbox', 'now']),
      runCli(['sandbox', '--webhook-url', 'ftp://hooks.example']),
      runCli(['sandbox', '--redirect-url', 'http://shop.example/wallet']),
    ]);
    expect(runs).toEqual([
      {
        code: 2,
        stdout: '',
        stderr: `error: option --error-shape must be one of code, error-object, error-string, errors-array\n${hint}`,
      },
      { code: 2, stdout: '', stderr: `error: option --port must be a whole number from 0 to 65535\n${hint}` },
      {
        code: 2,
        stdout: '',
        stderr: `error: unknown sandbox action "now": one of settle, advance, webhook-url, webhooks, redeliver, next-webhook, webhook-retries, forge, ledger, balance, user, revoke, fault, reset\n${hint}`,
      },
      {
        code: 2,
        stdout: '',
        stderr: `error: --webhook-url must be an absolute http(s) URL\n${hint}`,
      },
      {
        code: 2,
        stdout: '',
        stderr: `error: --redirect-url must use https (http only on loopback hosts)\n${hint}`,
      },
    ]);
  });
});
