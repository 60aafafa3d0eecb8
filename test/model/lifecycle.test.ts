import { expect, test } from 'vitest';
import { runModel } from './run-model.js';

test('random payment lifecycles on several instances sharing one journal, under faults, crashes, recovery and sweeps, never charge an order twice, and the journal ends agreeing with the ledger', async () => {
  const report = await runModel({ sequences: 100, maxCommands: 10 });
  process.stdout.write(
    `lifecycle model: ${report.sequences} sequences, ${report.commands} commands, seed ${report.seed}\n`,
  );
  expect(report.sequences).toBeGreaterThanOrEqual(100);
}, 180_000);
