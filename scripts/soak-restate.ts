/**
 * `npm run soak:restate`: payments inside a Restate service under SIGKILLs of its process, against
 * the real Restate server from npm (see scripts/soak-restate/run.ts). Prints the figures; exits 0
 * only when every check holds. Options: --kills (20), --orders (300), --seed.
 */
import { parseArgs } from 'node:util';
import { runRestateSoak } from './soak-restate/run.js';

const { values } = parseArgs({
  options: {
    kills: { type: 'string', default: '20' },
    orders: { type: 'string', default: '300' },
    seed: { type: 'string', default: String(Date.now() % 1_000_000) },
  },
});
const report = await runRestateSoak({
  kills: Number(values.kills),
  orders: Number(values.orders),
  seed: Number(values.seed),
  log: (line) => process.stderr.write(`${line}\n`),
});
for (const [name, value] of Object.entries(report.figures))
  process.stdout.write(`${name.padEnd(28)} ${value}\n`);
for (const violation of report.violations) process.stdout.write(`VIOLATION ${violation}\n`);
process.exit(report.violations.length === 0 ? 0 : 1);
