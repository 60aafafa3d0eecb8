import { expect, test } from 'vitest';
import { runAuthorizationModel } from './run-authorization.js';

test('random logins, approvals, forgeries, revocations, rotations and payments on several vault instances keep every authorization rule', async () => {
  const report = await runAuthorizationModel({ sequences: 60, maxSteps: 10 });
  process.stdout.write(
    `authorization model: ${report.sequences} sequences, ${report.commands} commands, seed ${report.seed}\n`,
  );
  expect(report.sequences).toBeGreaterThanOrEqual(60);
}, 180_000);
