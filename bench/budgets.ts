/**
 * The performance and size budgets of DESIGN.md, in one table. A budget with `atLeast` is a floor
 * (throughput ratios); every other one is a ceiling.
 */
import { SIZE_BUDGETS } from './size-budgets.js';

export const BUDGETS = {
  nodeThroughputC1: {
    limit: 0.75,
    atLeast: true,
    unit: '×',
    what: 'getTransaction req/s at c=1 vs faster bare client, median',
  },
  nodeThroughputC64: {
    limit: 0.8,
    atLeast: true,
    unit: '×',
    what: 'getTransaction req/s at c=64 vs faster bare client, median',
  },
  fetchThroughputC1: {
    limit: 0.75,
    atLeast: true,
    unit: '×',
    what: 'fetch transport req/s at c=1 vs bare fetch, median',
  },
  fetchThroughputC64: {
    limit: 0.75,
    atLeast: true,
    unit: '×',
    what: 'fetch transport req/s at c=64 vs bare fetch, median',
  },
  coldImportRatio: {
    limit: 0.5,
    unit: '×',
    what: "cold import('merchant-wallet') vs import('stripe'), median",
  },
  ...SIZE_BUDGETS,
  otelNoSdkRatio: {
    limit: 0.98,
    atLeast: true,
    unit: '×',
    what: 'getTransaction c=64, 0 ms, otel entry enabled without an SDK vs off',
  },
  // Gated where a merchant meets it: payments against a service with latency. At 0 ms the entry with
  // the SDK costs 89 to 109 µs of CPU per call (the SDK's span, context and histogram record, the
  // tracing channel's events and promises, and the garbage of all of them): 0.59× to 0.69× of a loop
  // that does nothing but call, a CPU figure, printed beside this one. At 20 ms, while the bench's
  // two cores keep up (the budget below), it is 0.99× (bench/otel-overhead.ts prints both and the
  // µs of CPU per call, which docs/observability.md quotes).
  otelSdkRatio: {
    limit: 0.9,
    atLeast: true,
    unit: '×',
    what: 'withdraw c=16, 20 ms service, SDK registered: otel on vs off',
  },
  // The ratio above means something only while the baseline waits on the service, not on the CPU.
  otelRemoteLatencyBound: {
    limit: 0.8,
    atLeast: true,
    unit: '×',
    what: 'withdraw c=16, 20 ms service, otel off: withdrawals/s vs 800',
  },
  journalMemoryRatio: {
    limit: 0.9,
    atLeast: true,
    unit: '×',
    what: 'withdrawals/s c=64, 0 ms service, memory journal vs none',
  },
  journalRedisRatio: {
    limit: 0.7,
    atLeast: true,
    unit: '×',
    what: 'withdrawals/s c=64, 0 ms service, Redis (everysec) vs none',
  },
  journalPostgresRatio: {
    limit: 0.5,
    atLeast: true,
    unit: '×',
    what: 'withdrawals/s c=64, 0 ms service, PostgreSQL (fsync) vs none',
  },
  journalRemoteMemoryRatio: {
    limit: 0.98,
    atLeast: true,
    unit: '×',
    what: 'withdrawals/s c=64, 20 ms service, memory journal vs none',
  },
  journalRemoteRedisRatio: {
    limit: 0.95,
    atLeast: true,
    unit: '×',
    what: 'withdrawals/s c=64, 20 ms service, Redis (everysec) vs none',
  },
  journalRemotePostgresRatio: {
    limit: 0.9,
    atLeast: true,
    unit: '×',
    what: 'withdrawals/s c=64, 20 ms service, PostgreSQL (fsync) vs none',
  },
  vaultTokenForPerSecond: {
    limit: 50_000,
    atLeast: true,
    unit: '/s',
    what: 'vault.tokenFor decrypts/s, memory store, one core',
  },
  vaultDepositByUserRatio: {
    limit: 0.9,
    atLeast: true,
    unit: '×',
    what: 'deposits/s at c=64 by { user } through the vault vs { userToken }',
  },
  sweepPerSecond: {
    limit: 2_000,
    atLeast: true,
    unit: '/s',
    what: 'sweepOnce due intents claimed and read back/s, PostgreSQL',
  },
  webhookFloodPaymentRatio: {
    limit: 1.2,
    unit: '×',
    what: 'withdraw time during 3,000 forged webhooks vs none, 50 ms service',
  },
  heapPerWaitBytes: { limit: 2048, unit: 'B', what: 'heap per waitForTransaction, 10,000 at once' },
  timersLeftAfterAbort: { limit: 0, unit: '', what: 'timers left after aborting 10,000 waits' },
} as const;

/** One budget: a ceiling, or a floor when `atLeast` is set. */
export interface Budget {
  readonly limit: number;
  readonly atLeast?: boolean;
  readonly unit: string;
  readonly what: string;
}

export type BudgetName = keyof typeof BUDGETS;

/** Whether `value` keeps within `budget`; NaN (not measured) never does. */
export function withinBudget(value: number, budget: Budget): boolean {
  return budget.atLeast ? value >= budget.limit : value <= budget.limit;
}

/** One line of the budget table: verdict, what, measured, limit. */
export function budgetLine(value: number, budget: Budget): string {
  // Three decimals for ratios, so that 0.797 is not shown as a passing 0.80.
  const shown = Number.isInteger(value) ? String(value) : value.toFixed(value < 10 ? 3 : 2);
  const limit = `${budget.atLeast ? '≥ ' : ''}${budget.limit}${budget.unit}`;
  return `${withinBudget(value, budget) ? 'ok  ' : 'OVER'}  ${budget.what.padEnd(60)} ${`${shown}${budget.unit}`.padStart(9)} ${limit.padStart(9)}\n`;
}
