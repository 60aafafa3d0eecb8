/**
 * Measures every budget of DESIGN.md and prints one table; exits non-zero when one is exceeded.
 * Usage: npm run bench (builds first; needs `node --expose-gc`, which the script sets).
 */
import { fileURLToPath } from 'node:url';
import { BUDGETS, type BudgetName } from './budgets.js';
import { bundledSize } from './bundle-size.js';
import { coldImportRatio } from './cold-import.js';
import { pollMemory } from './poll-memory.js';
import { requestOverheadRatio } from './request-overhead.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const measured: Partial<Record<BudgetName, number>> = {};

measured.loginBundleBytes = await bundledSize(`${root}src/login.ts`);
measured.webhooksBundleBytes = await bundledSize(`${root}src/webhooks/index.ts`);
measured.clientBundleBytes = await bundledSize(`${root}bench/entries/client.ts`);
measured.requestOverheadRatio = await requestOverheadRatio();
measured.coldImportRatio = coldImportRatio(`${root}dist/index.js`);
Object.assign(measured, await pollMemory());

let exceeded = 0;
process.stdout.write('budget                                                        measured    limit\n');
for (const [name, budget] of Object.entries(BUDGETS) as [BudgetName, (typeof BUDGETS)[BudgetName]][]) {
  const value = measured[name] ?? Number.NaN;
  const ok = value <= budget.limit;
  if (!ok) exceeded += 1;
  const shown = Number.isInteger(value) ? String(value) : value.toFixed(2);
  process.stdout.write(
    `${ok ? 'ok  ' : 'OVER'}  ${budget.what.padEnd(56)} ${`${shown}${budget.unit}`.padStart(9)} ${`${budget.limit}${budget.unit}`.padStart(8)}\n`,
  );
}
process.exitCode = exceeded === 0 ? 0 : 1;
