/**
 * `npm run test:model`: the lifecycle model of test/model at length. Options: --sequences (10000),
 * --max-commands (12), --seed. Prints its progress every 500 sequences, then what it ran; a broken
 * rule prints fast-check's counterexample, with the seed that replays it, and exits 1.
 */
import { parseArgs } from 'node:util';
import { type ModelReport, runModel } from '../test/model/run-model.js';

const { values } = parseArgs({
  options: {
    sequences: { type: 'string', default: '10000' },
    'max-commands': { type: 'string', default: '12' },
    seed: { type: 'string' },
  },
});
const sequences = Number(values.sequences);
const line = (report: ModelReport) =>
  `${report.sequences} sequences, ${report.commands} commands, ${report.seconds.toFixed(0)} s (${(report.virtualSeconds / 3600).toFixed(1)} h of virtual time), seed ${report.seed}`;
const report = await runModel({
  sequences,
  maxCommands: Number(values['max-commands']),
  ...(values.seed === undefined ? {} : { seed: Number(values.seed) }),
  onProgress: (sofar) => process.stdout.write(`lifecycle model: ${line(sofar)} of ${sequences}\n`),
});
process.stdout.write(
  `lifecycle model: ${line(report)}: no order charged twice, journal equal to the ledger, every genuine webhook processed once\n`,
);
