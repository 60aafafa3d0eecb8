/**
 * `npm run test:model`: the lifecycle model of test/model at length. Options: --sequences (10000),
 * --max-commands (12), --seed. Prints what it ran; a broken rule prints fast-check's counterexample,
 * with the seed that replays it, and exits 1.
 */
import { parseArgs } from 'node:util';
import { runModel } from '../test/model/run-model.js';

const { values } = parseArgs({
  options: {
    sequences: { type: 'string', default: '10000' },
    'max-commands': { type: 'string', default: '12' },
    seed: { type: 'string' },
  },
});
const report = await runModel({
  sequences: Number(values.sequences),
  maxCommands: Number(values['max-commands']),
  ...(values.seed === undefined ? {} : { seed: Number(values.seed) }),
});
process.stdout.write(
  `lifecycle model: ${report.sequences} sequences, ${report.commands} commands, ${report.seconds.toFixed(0)} s, seed ${report.seed}: no order charged twice, journal equal to the ledger, every genuine webhook processed once\n`,
);
