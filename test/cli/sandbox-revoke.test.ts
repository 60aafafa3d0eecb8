import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isWalletApiError, WalletClient } from '../../src/index.js';
import { CONTROL_KEY, DEMO_KEY, runCli, startCliSandbox } from './helpers.js';

type CliSandbox = Awaited<ReturnType<typeof startCliSandbox>>;

let sandbox: CliSandbox;
/** Everything the running sandbox printed after its banner. */
let log = '';

beforeAll(async () => {
  sandbox = await startCliSandbox(['--auto-settle-ms', 'off']);
  sandbox.child.stdout.on('data', (chunk: Buffer | string) => {
    log += String(chunk);
  });
});
afterAll(async () => {
  sandbox.child.kill('SIGINT');
  await sandbox.done;
});

const env = () => ({ WALLET_SANDBOX_KEY: CONTROL_KEY, WALLET_BASE_URL: sandbox.baseUrl });
let references = 0;
/** A covered deposit with `token`: the error code it was refused with, or `ok`. */
async function depositWith(token: string): Promise<string> {
  const wallet = new WalletClient({ apiKey: DEMO_KEY, baseUrl: sandbox.baseUrl, maxRetries: 0 });
  try {
    await wallet.deposit(
      { reference_id: `cli-revoke-${++references}`, amount: 1, currency: 'KES' },
      { userToken: token },
    );
    return 'ok';
  } catch (error) {
    return isWalletApiError(error) ? error.code : String(error);
  }
}

describe('merchant-wallet sandbox revoke', () => {
  test("--email ends the user's tokens; the running sandbox says so", async () => {
    expect(await depositWith('tok_sandbox_alice')).toBe('ok');
    expect(await runCli(['sandbox', 'revoke', '--email', 'alice@example.com'], { env: env() })).toEqual({
      code: 0,
      stdout:
        'alice@example.com: 2 token(s) revoked; requests with them now get application_not_authorized\n',
      stderr: '',
    });
    expect(await depositWith('tok_sandbox_alice')).toBe('application_not_authorized');
    await expect.poll(() => log).toContain('tokens revoked: alice@example.com, 2 token(s)');
  });

  test('--token ends that token and never prints it; an unknown one exits 1 without printing it', async () => {
    const done = await runCli(['sandbox', 'revoke', '--token', 'tok_sandbox_bob'], { env: env() });
    expect(done.code).toBe(0);
    expect(done.stdout).toBe(
      'bob@example.com: 1 token(s) revoked; requests with them now get application_not_authorized\n',
    );
    expect(await depositWith('tok_sandbox_bob')).toBe('application_not_authorized');
    const unknown = await runCli(['sandbox', 'revoke', '--token', 'tok_made_up_secret'], { env: env() });
    expect(unknown).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: token: names no token this sandbox issued\n',
    });
    const nobody = await runCli(['sandbox', 'revoke', '--email', 'nobody@example.com'], { env: env() });
    expect(nobody).toMatchObject({
      code: 1,
      stderr: 'error: email: names no sandbox user (nobody@example.com)\n',
    });
  });

  test('naming neither or both of --email and --token, or --app without --email, is a usage error', async () => {
    const runs = await Promise.all([
      runCli(['sandbox', 'revoke'], { env: env() }),
      runCli(['sandbox', 'revoke', '--email', 'a@example.com', '--token', 'x'], { env: env() }),
      runCli(['sandbox', 'revoke', '--token', 'x', '--app', 'app_demo_shop'], { env: env() }),
    ]);
    expect(runs.map((r) => [r.code, r.stderr.split('\n')[0]])).toEqual([
      [2, 'error: name exactly one of --email EMAIL and --token TOKEN'],
      [2, 'error: name exactly one of --email EMAIL and --token TOKEN'],
      [2, 'error: --app goes with --email'],
    ]);
  });
});

describe('sandbox control commands refuse numbers out of bounds', () => {
  test('advance of 1e15 ms, a balance of 1e300 and a fault of 1e300 ms are refused; the sandbox keeps serving', async () => {
    const [advance, days, balance, fault] = await Promise.all([
      runCli(['sandbox', 'advance', '1000000000000000'], { env: env() }),
      runCli(['sandbox', 'advance', '100000d'], { env: env() }),
      runCli(['sandbox', 'balance', 'KES', '1e300', '--app', 'app_demo_shop'], { env: env() }),
      runCli(['sandbox', 'fault', '{"kind":"latency","ms":1e300}'], { env: env() }),
    ]);
    expect(advance).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('error: <duration> must be at most 315576000000 ms (ten years)\n'),
    });
    expect(days.code).toBe(2);
    expect(balance).toMatchObject({
      code: 2,
      stderr: expect.stringContaining(
        'error: amount must be a number from 0 to 1000000000000 with at most two decimals, such as 20 or 12.50\n',
      ),
    });
    expect(fault).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: fault.ms: must be a number from 0 to 600000 ms\n',
    });
    expect(await depositWith('tok_sandbox_carol')).toBe('user_not_active');
    const clock = await runCli(['sandbox', 'advance', '1s'], { env: env() });
    expect(clock.stdout).toMatch(/^clock 20\d\d-\d\d-\d\dT/);
  });
});
