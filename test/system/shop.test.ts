import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

test('the example shop passes its browser check on memory, PostgreSQL and Redis stores, a mid-payment SIGKILL and a callback settled by the sweeper included', async () => {
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', 'scripts/shop-check.ts'],
      { cwd: root, timeout: 280_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? (child.exitCode ?? 1) : 0, output: stdout + stderr }),
    );
  });
  expect(output).toMatch(/^shop: \d+ passed, 0 failed$/m);
  expect(code, output).toBe(0);
}, 300_000);
