/**
 * Runs every fuzz property with many cases (default 100,000 each) and prints the counts.
 * Usage: npm run test:fuzz [-- --runs 100000 --seed 42]
 */
import { parseArgs } from 'node:util';
import { properties } from '../test/fuzz/properties.js';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '100000' }, seed: { type: 'string' } },
});
const runs = Number(values.runs);
const seed = values.seed === undefined ? Date.now() % 2 ** 31 : Number(values.seed);
if (!Number.isSafeInteger(runs) || runs <= 0) throw new Error('--runs must be a positive integer');

let failed = 0;
process.stdout.write(`fuzz: ${runs} cases per property, seed ${seed}\n`);
for (const property of properties) {
  const started = performance.now();
  try {
    await property.check(runs, seed);
    process.stdout.write(
      `  ok    ${runs} cases  ${((performance.now() - started) / 1000).toFixed(1)} s  ${property.name}\n`,
    );
  } catch (error) {
    failed += 1;
    process.stdout.write(`  FAIL  ${property.name}\n${String(error)}\n`);
  }
}
process.stdout.write(`${properties.length - failed} passed, ${failed} failed\n`);
process.exitCode = failed === 0 ? 0 : 1;
