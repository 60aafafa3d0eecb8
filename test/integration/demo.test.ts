import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { runDemo } from '../../src/cli/demo/run-demo.js';
import { DemoStepError } from '../../src/cli/demo/transcript.js';
import { type ChildRun, DEMO_STEPS, finished } from '../helpers/child-process.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Runs the `merchant-wallet demo` command the way `npm run demo` does, in its own process. */
function runDemoProcess(): Promise<ChildRun> {
  return finished(
    spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'demo'], {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    }),
  );
}

describe('npm run demo', () => {
  test('exits 0 within 10 seconds with one line per step and no secrets', async () => {
    const started = performance.now();
    const { code, stdout, stderr } = await runDemoProcess();
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const labels = stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.slice(0, 16).trim());
    expect(labels).toEqual(DEMO_STEPS);
    expect(stdout).toMatch(/^deposit {9}txn_000001 {2}KES 150\.00 {2}completed/m);
    expect(stdout).toMatch(/^deposit {9}txn_000002 {2}KES 8,000\.00 {2}pending/m);
    expect(stdout).toMatch(
      /^waited {10}txn_000002 {2}pending → completed in \d+ ms: settled at 2\.\d\d s, seen \d+ ms later on its verified webhook$/m,
    );
    expect(stdout).toMatch(/^withdrawal {6}txn_000003 .* completed \d{4}-\d\d-\d\dT/m);
    expect(stdout).toMatch(/^handled error {3}insufficient_balance \(HTTP 422\)/m);
    expect(stdout).toMatch(/^token received {2}user_authorized for alice@example\.com: tok_….{3}$/m);
    // Only masked credentials: no whole API key, and no token longer than its mask.
    expect(stdout).not.toContain('sk_sandbox_demo_shop');
    expect(stdout).not.toMatch(/tok_[A-Za-z0-9_-]{4,}/);
  }, 15_000);

  test('a failing step rejects with a DemoStepError naming it, after the lines of the steps before', async () => {
    const lines: string[] = [];
    const failure = await runDemo((line) => lines.push(line), {
      prepare: ({ sandbox }) => {
        sandbox.faults.inject({ route: 'providers', kind: 'error', code: 'invalid_api_key' });
      },
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DemoStepError);
    expect((failure as DemoStepError).step).toBe('providers');
    expect((failure as Error).message).toMatch(/^step "providers" failed: api key does not exist/);
    expect(lines.at(-1)).toMatch(/^token received/);
  });
});
