/**
 * Checks the size budgets: bundles each entry with esbuild (minified, gzip level 9, as a browser
 * or edge bundler would ship it), measures the tarball `npm pack` would publish (after a build),
 * prints the sizes and exits non-zero when one is over its budget or a shipped source map points at
 * a file the package does not ship. Deterministic (no timing), so CI runs it. Usage: npm run size
 */
import { fileURLToPath } from 'node:url';
import { budgetLine, withinBudget } from '../bench/budgets.js';
import { bundleSize } from '../bench/bundle-size.js';
import { packageSize } from '../bench/package-size.js';
import { PACKAGE_SIZE_BUDGET, SIZE_BUDGETS } from '../bench/size-budgets.js';

const root = fileURLToPath(new URL('..', import.meta.url));
let over = 0;
for (const budget of Object.values(SIZE_BUDGETS)) {
  const bytes = (await bundleSize(`${root}${budget.entry}`))[budget.part];
  if (!withinBudget(bytes, budget)) over += 1;
  process.stdout.write(budgetLine(bytes, budget));
}
const pack = packageSize(root);
if (!withinBudget(pack.packedBytes, PACKAGE_SIZE_BUDGET)) over += 1;
process.stdout.write(budgetLine(pack.packedBytes, PACKAGE_SIZE_BUDGET));
for (const source of pack.missingMapSources) {
  over += 1;
  process.stdout.write(`OVER  a shipped source map points at ${source}, which the package does not ship\n`);
}
process.exitCode = over === 0 ? 0 : 1;
