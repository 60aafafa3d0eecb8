/**
 * `npm run soak:outbox`: the outbox recipe under SIGKILLs of its paying and relaying processes (see
 * scripts/soak-outbox/run.ts). Prints the figures; exits 0 only when every check holds. Options:
 * --kills (20), --seed.
 */
import { parseArgs } from 'node:util';
import { runOutboxSoak } from './soak-outbox/run.js';

const { values } = parseArgs({
  options: {
    kills: { type: 'string', default: '20' },
    seed: { type: 'string', default: String(Date.now() % 1_000_000) },
  },
});
const report = await runOutboxSoak({
  kills: Number(values.kills),
  seed: Number(values.seed),
  log: (line) => process.stderr.write(`${line}\n`),
});
for (const [name, value] of Object.entries(report.figures))
  process.stdout.write(`${name.padEnd(28)} ${value}\n`);
for (const violation of report.violations) process.stdout.write(`VIOLATION ${violation}\n`);
process.exit(report.violations.length === 0 ? 0 : 1);
