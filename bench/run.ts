/**
 * Measures every budget of DESIGN.md and prints the throughput table and the budget table; exits
 * non-zero when a budget is missed.
 * Usage: npm run bench (builds first; needs `node --expose-gc`, which the script sets).
 */
import { fileURLToPath } from 'node:url';
import { BUDGETS, type BudgetName, budgetLine, withinBudget } from './budgets.js';
import { bundleSize } from './bundle-size.js';
import { coldImportRatio } from './cold-import.js';
import {
  ROUNDS as JOURNAL_ROUNDS,
  journalTable,
  measureJournalOverhead,
  overheadRatio,
} from './journal-overhead.js';
import { measureOtelOverhead, otelTable } from './otel-overhead.js';
import { pollMemory } from './poll-memory.js';
import { SIZE_BUDGETS } from './size-budgets.js';
import { measureSweep } from './sweep.js';
import { measureThroughput, throughputTable } from './throughput.js';
import { measureTokenVault, vaultTable } from './token-vault.js';
import { measureWebhookFlood, webhookFloodTable } from './webhook-flood.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const measured: Partial<Record<BudgetName, number>> = {};

for (const [name, budget] of Object.entries(SIZE_BUDGETS)) {
  measured[name as BudgetName] = (await bundleSize(`${root}${budget.entry}`))[budget.part];
}
const throughput = await measureThroughput();
Object.assign(measured, {
  nodeThroughputC1: throughput.nodeThroughputC1,
  nodeThroughputC64: throughput.nodeThroughputC64,
  fetchThroughputC1: throughput.fetchThroughputC1,
  fetchThroughputC64: throughput.fetchThroughputC64,
});
measured.coldImportRatio = coldImportRatio(`${root}dist/index.js`);
Object.assign(measured, await pollMemory());
const journals = await measureJournalOverhead();
Object.assign(measured, {
  journalMemoryRatio: overheadRatio(journals, '0 ms c=64', 'memory'),
  journalRedisRatio: overheadRatio(journals, '0 ms c=64', 'redis'),
  journalPostgresRatio: overheadRatio(journals, '0 ms c=64', 'postgres'),
  journalRemoteMemoryRatio: overheadRatio(journals, '20 ms c=64', 'memory'),
  journalRemoteRedisRatio: overheadRatio(journals, '20 ms c=64', 'redis'),
  journalRemotePostgresRatio: overheadRatio(journals, '20 ms c=64', 'postgres'),
});
const vault = await measureTokenVault();
measured.vaultTokenForPerSecond = vault.tokenForPerSecond;
measured.vaultDepositByUserRatio = vault.byUserRatio;
measured.sweepPerSecond = await measureSweep();
const otel = await measureOtelOverhead();
measured.otelNoSdkRatio = otel.noSdkRatio;
measured.otelSdkRatio = otel.remote.sdkRatio;
measured.otelRemoteLatencyBound = otel.remote.latencyBound;
const flood = await measureWebhookFlood();
measured.webhookFloodPaymentRatio = flood.ratio;

process.stdout.write(`getTransaction against one loopback server on its own thread, medians of rounds:\n\n`);
process.stdout.write(throughputTable(throughput));
process.stdout.write(
  `\nwithdrawals against the sandbox in its own process, by load (service latency, payments in flight) and journal, medians of ${JOURNAL_ROUNDS} rounds:\n\n`,
);
process.stdout.write(journalTable(journals));
process.stdout.write(`\ntoken vault: decrypts, and deposits against the sandbox at concurrency 64:\n\n`);
process.stdout.write(vaultTable(vault));
process.stdout.write(
  `\nmerchant-wallet/otel, side by side in one run, medians of rounds (the 0 ms SDK ratio is not a budget: see bench/budgets.ts):\n\n`,
);
process.stdout.write(otelTable(otel));
process.stdout.write(
  `\nwithdrawals during a flood of forged webhooks, sandbox in its own process at 50 ms:\n\n`,
);
process.stdout.write(webhookFloodTable(flood));
process.stdout.write(`\n${'budget'.padEnd(66)} measured     limit\n`);
let missed = 0;
for (const [name, budget] of Object.entries(BUDGETS) as [BudgetName, (typeof BUDGETS)[BudgetName]][]) {
  const value = measured[name] ?? Number.NaN;
  if (!withinBudget(value, budget)) missed += 1;
  process.stdout.write(budgetLine(value, budget));
}
process.exitCode = missed === 0 ? 0 : 1;
