import { describe, expect, test } from 'vitest';
import { DEMO_STEPS } from '../helpers/child-process.js';
import { runCli } from './helpers.js';

describe('merchant-wallet demo', () => {
  test('runs the merchant flow to the end with masked credentials and exits 0', async () => {
    const run = await runCli(['demo']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('Merchant Wallet demo');
    expect(lines.slice(1).map((line) => line.slice(0, 16).trim())).toEqual(DEMO_STEPS);
    expect(lines.at(-1)).toMatch(/^done {12}\d+\.\d\d s, servers closed$/);
    // The settlement is seen through the webhook handler's events, not by the next poll.
    expect(run.stdout).toMatch(/^waited {10}txn_000002 {2}.* seen \d+ ms later on its verified webhook$/m);
    expect(run.stdout).not.toContain('sk_sandbox_demo_shop');
    expect(run.stdout).not.toMatch(/tok_[A-Za-z0-9_-]{4,}/);
  }, 15_000);

  test('takes no arguments', async () => {
    expect(await runCli(['demo', 'fast'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: takes no arguments\nRun "merchant-wallet demo --help" for usage.\n',
    });
  });
});
