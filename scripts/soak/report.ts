import type { SoakResult } from './types.js';

/** A short plain-text table of a soak run's counts and invariants. */
export function formatSoakReport(result: SoakResult): string {
  const rows: [string, string | number][] = [
    ['operations', result.operations],
    ['succeeded', result.succeeded],
    ...Object.entries(result.failures)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([label, count]): [string, number] => [`  ${label}`, count]),
    ['faults armed / fired', `${result.faultsArmed} / ${result.faultsArmed - result.faultsLeftArmed}`],
    ['duration', `${(result.durationMs / 1000).toFixed(1)} s`],
    ['ops/s', Math.round(result.operations / (result.durationMs / 1000))],
    ['transactions in sandbox', result.transactions],
    ['max transactions per reference id', result.maxTransactionsPerReference],
    ['duplicate reference ids', result.invariants.duplicateReferenceViolations],
    ['unaccounted transactions', result.invariants.unaccountedTransactionViolations],
    ['phantom successes', result.invariants.phantomSuccessViolations],
    ['currencies whose total changed', result.invariants.moneyViolations],
    ['secret occurrences', result.invariants.secretViolations],
    ['non-WalletError failures', result.invariants.foreignErrorViolations],
    ['log lines checked', result.logLines],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  const money = Object.entries(result.invariants.moneyBefore)
    .map(([currency, total]) => `${currency} ${total} -> ${result.invariants.moneyAfter[currency]}`)
    .join(', ');
  return [
    ...rows.map(([label, value]) => `${label.padEnd(width)}  ${value}`),
    `${'money per currency'.padEnd(width)}  ${money}`,
    `${'invariants'.padEnd(width)}  ${result.violations === 0 ? 'all hold' : `${result.violations} VIOLATED`}`,
  ].join('\n');
}
