/**
 * Checks the bundle-size budgets: bundles each entry with esbuild (minified, gzip level 9, as a browser
 * or edge bundler would ship it), prints the sizes and exits non-zero when one is over its budget.
 * Deterministic (no timing), so CI runs it. Usage: npm run size
 */
import { fileURLToPath } from 'node:url';
import { budgetLine, withinBudget } from '../bench/budgets.js';
import { bundleSize } from '../bench/bundle-size.js';
import { SIZE_BUDGETS } from '../bench/size-budgets.js';

const root = fileURLToPath(new URL('..', import.meta.url));
let over = 0;
for (const budget of Object.values(SIZE_BUDGETS)) {
  const bytes = (await bundleSize(`${root}${budget.entry}`))[budget.part];
  if (!withinBudget(bytes, budget)) over += 1;
  process.stdout.write(budgetLine(bytes, budget));
}
process.exitCode = over === 0 ? 0 : 1;
