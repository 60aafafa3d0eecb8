/**
 * `npm run test:model`: the models of test/model at length, the payment lifecycle then
 * authorization. Options: --sequences (lifecycle, 10000), --auth-sequences (authorization, 5000),
 * --max-commands (12), --only (lifecycle or authorization), --seed. Prints the lifecycle model's
 * progress every 500 sequences, then what each ran; a broken rule prints fast-check's
 * counterexample, with the seed that replays it, and exits 1.
 */
import { parseArgs } from 'node:util';
import { runAuthorizationModel } from '../test/model/run-authorization.js';
import { type ModelReport, runModel } from '../test/model/run-model.js';

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
  const sequences = Number(values.sequences);
  const line = (report: ModelReport) =>
    `${report.sequences} sequences, ${report.commands} commands, ${report.seconds.toFixed(0)} s (${((report.virtualSeconds ?? 0) / 3600).toFixed(1)} h of virtual time), seed ${report.seed}`;
  const report = await runModel({
    sequences,
    maxCommands,
    ...seed,
    onProgress: (sofar) => process.stdout.write(`lifecycle model: ${line(sofar)} of ${sequences}\n`),
  });
  process.stdout.write(
    `lifecycle model: ${line(report)}: no order charged twice, journal equal to the ledger and to what each caller was told (lost write-behinds included), every genuine webhook processed once\n`,
  );
}
if (values.only !== 'lifecycle') {
  const report = await runAuthorizationModel({
    sequences: Number(values['auth-sequences']),
    maxSteps: maxCommands,
    ...seed,
  });
  process.stdout.write(
    `authorization model: ${report.sequences} sequences, ${report.commands} commands, ${report.seconds.toFixed(0)} s, seed ${report.seed}: one authorization links at most one account, to the user who approved it; no forged current token; no user holding a token issued to another; no token reverted or lost by rewrap; each refused token told once; reconnecting takes one trip; no token in plain text\n`,
  );
}
