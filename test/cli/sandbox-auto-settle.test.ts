import { afterEach, describe, expect, test } from 'vitest';
import { WalletClient } from '../../src/index.js';
import { CONTROL_KEY, DEMO_KEY, runCli, startCliSandbox } from './helpers.js';

type CliSandbox = Awaited<ReturnType<typeof startCliSandbox>>;
let sandbox: CliSandbox | undefined;

afterEach(async () => {
  sandbox?.child.kill('SIGINT');
  await sandbox?.done;
  sandbox = undefined;
});

const env = (running: CliSandbox) => ({ WALLET_SANDBOX_KEY: CONTROL_KEY, WALLET_BASE_URL: running.baseUrl });

async function pendingDeposit(running: CliSandbox, reference: string): Promise<string> {
  const wallet = new WalletClient({ apiKey: DEMO_KEY, baseUrl: running.baseUrl });
  const result = await wallet.deposit(
    { reference_id: reference, amount: 500, currency: 'KES', payment_provider: 'mpesa' },
    { userToken: 'tok_sandbox_bob' },
  );
  expect(result.transaction_status).toBe('pending');
  return result.transaction_id;
}

describe('merchant-wallet sandbox auto-settlement', () => {
  test('by default a deposit waits 60 s on the sandbox clock, so settle by hand works, 50 s later it is still pending, and by 60 s it has settled', async () => {
    sandbox = await startCliSandbox([]);
    const running = sandbox;
    expect(running.banner).toContain(
      'auto-settle  pending deposits settle 60000 ms after they start (sandbox clock)\n',
    );
    const byHand = await pendingDeposit(running, 'auto-1');
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(await runCli(['sandbox', 'settle', byHand], { env: env(running) })).toEqual({
      code: 0,
      stdout: `${byHand} completed\n`,
      stderr: '',
    });
    const left = await pendingDeposit(running, 'auto-2');
    // The sandbox clock also runs in real time, and each CLI run takes a second or two: 50 s leaves room.
    expect((await runCli(['sandbox', 'advance', '50s'], { env: env(running) })).code).toBe(0);
    const wallet = new WalletClient({ apiKey: DEMO_KEY, baseUrl: running.baseUrl });
    expect((await wallet.getTransaction(left)).transaction_status).toBe('pending');
    expect((await runCli(['sandbox', 'advance', '10s'], { env: env(running) })).code).toBe(0);
    const again = await runCli(['sandbox', 'settle', left], { env: env(running) });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(
      `is not a pending deposit: ${left} is already completed (auto-settled 60000 ms after it started)`,
    );
    const twice = await runCli(['sandbox', 'settle', byHand], { env: env(running) });
    expect(twice.stderr).toContain(`is not a pending deposit: ${byHand} is already completed\n`);
  });

  test('--auto-settle-ms off leaves deposits pending until settled by command', async () => {
    sandbox = await startCliSandbox(['--auto-settle-ms', 'off']);
    const running = sandbox;
    expect(running.banner).toContain(
      'auto-settle  off: pending deposits settle only by "sandbox settle" (or a scenario token)\n',
    );
    const id = await pendingDeposit(running, 'off-1');
    expect((await runCli(['sandbox', 'advance', '24h'], { env: env(running) })).code).toBe(0);
    expect(await runCli(['sandbox', 'settle', id], { env: env(running) })).toEqual({
      code: 0,
      stdout: `${id} completed\n`,
      stderr: '',
    });
  });

  test('an --auto-settle-ms that is neither off nor a whole number is a usage error', async () => {
    const run = await runCli(['sandbox', '--auto-settle-ms', 'soon']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--auto-settle-ms must be "off" or a whole number from 0 to');
  });
});
