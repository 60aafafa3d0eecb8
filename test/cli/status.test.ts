import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ALICE_TOKEN, DEMO_KEY, runCli, startTestSandbox, type TestSandbox } from './helpers.js';

let target: TestSandbox;
let completedId: string;
let failedId: string;
let largeId: string;

beforeAll(async () => {
  target = await startTestSandbox();
  const { wallet, sandbox } = target;
  completedId = (
    await wallet.deposit(
      { reference_id: 'order-1', amount: 150, currency: 'KES' },
      { userToken: ALICE_TOKEN },
    )
  ).transaction_id;
  failedId = (
    await wallet.deposit(
      { reference_id: 'order-2', amount: 500, currency: 'KES', payment_provider: 'declinepay' },
      { userToken: 'tok_sandbox_bob' },
    )
  ).transaction_id;
  sandbox.settle(failedId, { status: 'failed', failure_reason: 'declined by payment provider' });
  largeId = (
    await wallet.deposit(
      { reference_id: 'order-3', amount: 12_500, currency: 'KES', payment_provider: 'mpesa' },
      { userToken: ALICE_TOKEN },
    )
  ).transaction_id;
});
afterAll(() => target.close());

describe.concurrent('merchant-wallet status', () => {
  test('prints one human-readable line for a completed transaction', async () => {
    expect(await runCli(['status', completedId], { env: target.env })).toEqual({
      code: 0,
      stdout: `${completedId}  completed  KES 150.00  reference order-1\n`,
      stderr: '',
    });
  });

  test('a failed transaction is a status that was read: its reason is shown and the exit status is 0', async () => {
    expect(await runCli(['status', failedId], { env: target.env })).toEqual({
      code: 0,
      stdout: `${failedId}  failed  KES 500.00  reference order-2  reason: declined by payment provider\n`,
      stderr: '',
    });
  });

  test('amounts are formatted as the demo shows them: thousands grouped, two decimals', async () => {
    expect(await runCli(['status', largeId], { env: target.env })).toEqual({
      code: 0,
      stdout: `${largeId}  pending  KES 12,500.00  reference order-3\n`,
      stderr: '',
    });
  });

  test('a connection failure names the host it could not reach', async () => {
    const run = await runCli(['status', completedId], {
      env: { WALLET_API_KEY: DEMO_KEY, WALLET_BASE_URL: 'http://127.0.0.1:1' },
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      /^error: cannot reach 127\.0\.0\.1:1: status failed after \d attempt\(s\): .*ECONNREFUSED\n$/,
    );
  });

  test('plain http to a host other than this machine is refused, naming --allow-insecure-http', async () => {
    const run = await runCli(['status', completedId], {
      env: { WALLET_API_KEY: DEMO_KEY, WALLET_BASE_URL: 'http://sandbox:4010' },
    });
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'error: WALLET_BASE_URL: must use https for sandbox:4010: plain http is allowed to loopback hosts, or to others with --allow-insecure-http\n',
    });
  });

  test('--allow-insecure-http reaches a plain http host that is not a loopback name', async () => {
    // An IPv4-mapped IPv6 address reaches this machine but is not one of the loopback names.
    const baseUrl = target.server.baseUrl.replace('127.0.0.1', '[::ffff:127.0.0.1]');
    const [refused, allowed] = await Promise.all([
      runCli(['status', completedId, '--base-url', baseUrl], { env: { WALLET_API_KEY: DEMO_KEY } }),
      runCli(['status', completedId, '--base-url', baseUrl, '--allow-insecure-http'], {
        env: { WALLET_API_KEY: DEMO_KEY },
      }),
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('--base-url: must use https');
    expect(allowed).toEqual({
      code: 0,
      stdout: `${completedId}  completed  KES 150.00  reference order-1\n`,
      stderr: '',
    });
  });

  test('--json prints the status result as the API returned it', async () => {
    const run = await runCli(['status', completedId, '--json'], { env: target.env });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(await target.wallet.getTransaction(completedId));
  });

  test('--base-url takes precedence over WALLET_BASE_URL', async () => {
    const run = await runCli(['status', completedId, '--base-url', target.server.baseUrl], {
      env: { WALLET_API_KEY: DEMO_KEY, WALLET_BASE_URL: 'http://127.0.0.1:1' },
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${completedId}  completed  KES 150.00  reference order-1\n`);
  });

  test('an unknown transaction prints the API error on one line, no stack, exit 1', async () => {
    expect(await runCli(['status', 'txn_999999'], { env: target.env })).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: transaction not found (transaction_not_found, HTTP 404 from status)\n',
    });
  });

  test('the API key is read from WALLET_API_KEY only: without it the command fails before any request', async () => {
    expect(
      await runCli(['status', completedId], { env: { WALLET_BASE_URL: target.server.baseUrl } }),
    ).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: WALLET_API_KEY: is not set: export the merchant API key\n',
    });
  });

  test('an --api-key flag is refused as a usage error that does not repeat the key', async () => {
    const run = await runCli(['status', completedId, `--api-key=${DEMO_KEY}`], {
      env: { WALLET_BASE_URL: target.server.baseUrl },
    });
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: unknown option --api-key\nRun "merchant-wallet status --help" for usage.\n',
    });
  });

  test('a rejected API key is reported without the key itself', async () => {
    const key = 'sk_live_not_a_sandbox_key_1234567890';
    const run = await runCli(['status', completedId], {
      env: { WALLET_API_KEY: key, WALLET_BASE_URL: target.server.baseUrl },
    });
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: api key does not exist (invalid_api_key, HTTP 401 from status)\n',
    });
  });

  test('a missing base URL names both ways to give one', async () => {
    expect(await runCli(['status', completedId], { env: { WALLET_API_KEY: DEMO_KEY } })).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: WALLET_BASE_URL: is not set: export it or pass --base-url\n',
    });
  });

  test('a missing or extra transaction id is a usage error', async () => {
    const [missing, extra] = await Promise.all([
      runCli(['status'], { env: target.env }),
      runCli(['status', 'txn_1', 'txn_2'], { env: target.env }),
    ]);
    expect(missing).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: missing transaction id\nRun "merchant-wallet status --help" for usage.\n',
    });
    expect(extra).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: takes at most 1 transaction id, got 2 arguments\nRun "merchant-wallet status --help" for usage.\n',
    });
  });
});
