/**
 * The OpenTelemetry part of the bench alone: `npm run bench:otel` (builds first). Prints the table of
 * `getTransaction` throughput in each state at 0 ms, the withdrawals against the sandbox at 20 ms,
 * and the budget lines `npm run bench` checks.
 */
import { BUDGETS, budgetLine } from './budgets.js';
import { measureOtelOverhead, otelTable } from './otel-overhead.js';

const otel = await measureOtelOverhead();
process.stdout.write(otelTable(otel));
process.stdout.write(budgetLine(otel.noSdkRatio, BUDGETS.otelNoSdkRatio));
process.stdout.write(budgetLine(otel.remote.sdkRatio, BUDGETS.otelSdkRatio));
process.stdout.write(budgetLine(otel.remote.latencyBound, BUDGETS.otelRemoteLatencyBound));
