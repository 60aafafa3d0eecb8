/**
 * `npm run test:model`: the models of test/model at length, the payment lifecycle then
 * authorization. Options: --sequences (lifecycle, 10000), --auth-sequences (authorization, 5000),
 * --max-commands (12), --only (lifecycle or authorization), --seed. Prints what each ran; a broken
 * rule prints fast-check's counterexample, with the seed that replays it, and exits 1.
 */
import { parseArgs } from 'node:util';
import { runAuthorizationModel } from '../test/model/run-authorization.js';
import { runModel } from '../test/model/run-model.js';

const { values } = parseArgs({
  options: {
    sequences: { type: 'string', default: '10000' },
    'auth-sequences': { type: 'string', default: '5000' },
    'max-commands': { type: 'string', default: '12' },
    only: { type: 'string' },
    seed: { type: 'string' },
  },
});
const seed = values.seed === undefined ? {} : { seed: Number(values.seed) };
const maxCommands = Number(values['max-commands']);
if (values.only !== 'authorization') {
  const report = await runModel({ sequences: Number(values.sequences), maxCommands, ...seed });
  process.stdout.write(
    `lifecycle model: ${report.sequences} sequences, ${report.commands} commands, ${report.seconds.toFixed(0)} s, seed ${report.seed}: no order charged twice, journal equal to the ledger, every genuine webhook processed once\n`,
  );
}
if (values.only !== 'lifecycle') {
  const report = await runAuthorizationModel({
    sequences: Number(values['auth-sequences']),
    maxSteps: maxCommands,
    ...seed,
  });
  process.stdout.write(
    `authorization model: ${report.sequences} sequences, ${report.commands} commands, ${report.seconds.toFixed(0)} s, seed ${report.seed}: one authorization links at most one account, to the user who approved it; no forged current token; no token reverted or lost by rewrap; each refused token told once; reconnecting takes one trip; no token in plain text\n`,
  );
}
