import { afterEach, beforeEach, expect, test } from 'vitest';
import { WalletClient } from '../../src/index.js';
import { type Receiver, startReceiver } from '../testing/helpers.js';
import { CONTROL_KEY, DEMO_KEY, runCli, startCliSandbox } from './helpers.js';

let receiver: Receiver;
let sandbox: Awaited<ReturnType<typeof startCliSandbox>>;
let log = '';

beforeEach(async () => {
  receiver = await startReceiver();
  sandbox = await startCliSandbox(['--webhook-url', receiver.url, '--auto-settle-ms', 'off']);
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

const env = () => ({ WALLET_SANDBOX_KEY: CONTROL_KEY, WALLET_BASE_URL: sandbox.baseUrl });

/** Waits until the sandbox has printed a line matching `pattern`. */
async function printed(pattern: RegExp): Promise<string> {
  for (let tries = 0; tries < 200 && !pattern.test(log); tries++) await new Promise((r) => setTimeout(r, 25));
  return pattern.exec(log)?.[0] ?? log;
}

test('a refused webhook prints when its next attempt is due, and "sandbox advance" brings it', async () => {
  receiver.queue.push(503);
  const wallet = new WalletClient({ apiKey: DEMO_KEY, baseUrl: sandbox.baseUrl });
  const deposit = await wallet.deposit(
    { reference_id: 'order-1', amount: 500, currency: 'KES', payment_provider: 'mpesa' },
    { userToken: 'tok_sandbox_bob' },
  );
  const settled = await runCli(['sandbox', 'settle', deposit.transaction_id], { env: env() });
  expect(settled.code).toBe(0);
  expect(await printed(/: HTTP 503, attempt 1; next attempt at \S+Z \(sandbox clock\)/)).toMatch(/attempt 1/);
  expect((await runCli(['sandbox', 'advance', '1m'], { env: env() })).code).toBe(0);
  expect(await printed(/transaction → \S+: HTTP 200, attempt 2\n/)).toMatch(/attempt 2/);
});

test('sandbox webhook-retries prints the schedule and changes it for later deliveries', async () => {
  const shown = await runCli(['sandbox', 'webhook-retries'], { env: env() });
  expect(shown).toMatchObject({ code: 0, stderr: '' });
  expect(shown.stdout).toBe(
    'webhook deliveries from now on: 8 attempt(s), waits 1m 5m 30m 1h 2h 4h 8h (sandbox clock)\n',
  );
  const changed = await runCli(['sandbox', 'webhook-retries', '--attempts', '4', '--schedule', '30s,10m'], {
    env: env(),
  });
  expect(changed.stdout).toBe(
    'webhook deliveries from now on: 4 attempt(s), waits 30s 10m 10m (sandbox clock)\n',
  );
});

test('a schedule that does not read as durations is a usage error naming the flag; nothing is sent', async () => {
  const run = await runCli(['sandbox', 'webhook-retries', '--schedule', '1m,soon'], { env: env() });
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(
    /^error: --schedule wait 2 must be a duration such as 30s, 5m or 2h, at most 7d/,
  );
  const started = await runCli(['sandbox', '--port', '0', '--webhook-schedule', '9d']);
  expect(started.code).toBe(2);
  expect(started.stderr).toMatch(/^error: --webhook-schedule wait 1 must be a duration/);
});
