import { expect, test } from 'vitest';
import { runModel } from './run-model.js';

test('random payment lifecycles under faults, crashes and recovery never charge an order twice, and the journal ends agreeing with the ledger', async () => {
  const report = await runModel({ sequences: 40, maxCommands: 10 });
  process.stdout.write(
    `lifecycle model: ${report.sequences} sequences, ${report.commands} commands, seed ${report.seed}\n`,
  );
  expect(report.sequences).toBeGreaterThanOrEqual(40);
}, 180_000);
