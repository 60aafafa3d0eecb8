import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DEMO_KEY, runCli } from '../helpers.js';
import { type Fixtures, newKey, startFixtures } from './fixtures.js';

let fx: Fixtures;
beforeAll(async () => {
  fx = await startFixtures();
});
afterAll(() => fx?.close());

test('doctor --json reports every check and exits 1 when one fails; no secret is printed', async () => {
  const key = newKey();
  const run = await runCli(['doctor', '--json'], {
    env: {
      WALLET_API_KEY: 'sk_sandbox_revoked_key_0042',
      WALLET_BASE_URL: fx.api.baseUrl,
      WALLET_WEBHOOK_URL: `${fx.routes.url}/ok`,
      WALLET_TOKEN_KEYS: JSON.stringify({ primary: 'k1', keys: { k1: key } }),
    },
  });
  expect(run.code).toBe(1);
  const report = JSON.parse(run.stdout) as { ok: boolean; checks: { id: string; status: string }[] };
  expect(report.ok).toBe(false);
  expect(report.checks.filter((check) => check.status === 'fail').map((check) => check.id)).toEqual([
    'api-key',
  ]);
  expect(run.stdout + run.stderr).not.toContain('sk_sandbox_revoked_key_0042');
  expect(run.stdout + run.stderr).not.toContain(key);
});

test('doctor reads a config file, prints a line per check and a count, and exits 0 when none fails', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'doctor-'));
  const file = join(dir, 'wallet.json');
  await writeFile(
    file,
    JSON.stringify({
      baseUrl: fx.api.baseUrl,
      webhookUrl: `${fx.routes.url}/ok`,
      allowedRedirectHosts: ['x.example'],
    }),
  );
  const run = await runCli(['doctor', '--config', file], { env: { WALLET_API_KEY: DEMO_KEY } });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(/^ok {4}base-url +http:\/\/127\.0\.0\.1:\d+ answers/m);
  expect(run.stdout).toMatch(/^skip {2}keyring +no keyring is set/m);
  expect(run.stdout).toMatch(/10 checks: 5 passed, 0 failed, 0 warning\(s\), 5 skipped\n$/);
  expect(run.stdout).not.toContain(DEMO_KEY);
});

test('a config file with an unknown field stops before any check, naming it', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'doctor-'));
  const file = join(dir, 'wallet.json');
  await writeFile(file, '{"webhook":"https://shop.example/hooks"}');
  const run = await runCli(['doctor', '--config', file]);
  expect(run.code).toBe(1);
  expect(run.stdout).toBe('');
  expect(run.stderr).toMatch(/^error: config\.webhook: is not a doctor setting/);
});
