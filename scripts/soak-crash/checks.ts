/** The final checks of `npm run soak:crash`, from the sandbox's own ledger and the journal. */
import { ACCEPTED_STATES, type PaymentIntentState } from '../../src/journal/types.js';

/** One journal row, as read back. */
export interface JournalRow {
  reference_id: string;
  endpoint: 'deposit' | 'withdraw';
  state: PaymentIntentState;
  transaction_id: string | null;
}

/** What the checks need of a sandbox transaction. */
export interface LedgerEntry {
  readonly transaction_id: string;
  readonly reference_id: string | undefined;
}

/** The checks' inputs. */
export interface CrashSoakInput {
  rows: readonly JournalRow[];
  ledger: readonly LedgerEntry[];
  moneyBefore: Record<string, number>;
  moneyAfter: Record<string, number>;
}

/** Figures and every broken rule. */
export interface CrashSoakResult {
  figures: Record<string, number>;
  violations: string[];
}

/** Checks no reference applied twice, every intent definite and matching the ledger, money conserved. */
export function checkCrashSoak(input: CrashSoakInput): CrashSoakResult {
  const violations: string[] = [];
  const byReference = new Map<string, LedgerEntry[]>();
  for (const entry of input.ledger) {
    if (!entry.reference_id?.startsWith('crash-')) continue;
    byReference.set(entry.reference_id, [...(byReference.get(entry.reference_id) ?? []), entry]);
  }
  const appliedTwice = [...byReference.values()].filter((entries) => entries.length > 1).length;
  if (appliedTwice > 0) violations.push(`${appliedTwice} references applied more than once`);

  const journaled = new Set(input.rows.map((row) => row.reference_id));
  const unjournaled = [...byReference.keys()].filter((reference) => !journaled.has(reference)).length;
  if (unjournaled > 0) violations.push(`${unjournaled} applied references have no journal intent`);

  const figures = {
    accepted: 0,
    refused: 0,
    indefinite: 0,
    disagreements: 0,
    appliedIdUnknownDeposits: 0,
    appliedIdUnknownWithdrawals: 0,
  };
  for (const row of input.rows) {
    const ledger = byReference.get(row.reference_id)?.[0];
    if (row.state === 'sending' || row.state === 'unknown') figures.indefinite += 1;
    else if (ACCEPTED_STATES.has(row.state)) figures.accepted += 1;
    else figures.refused += 1;
    const agrees = ACCEPTED_STATES.has(row.state)
      ? ledger !== undefined && (row.transaction_id === null || row.transaction_id === ledger.transaction_id)
      : row.state === 'refused' || row.state === 'closed'
        ? ledger === undefined
        : false;
    if (!agrees) figures.disagreements += 1;
    if (ACCEPTED_STATES.has(row.state) && row.transaction_id === null) {
      if (row.endpoint === 'deposit') figures.appliedIdUnknownDeposits += 1;
      else figures.appliedIdUnknownWithdrawals += 1;
    }
  }
  if (figures.indefinite > 0) violations.push(`${figures.indefinite} intents are not definite`);
  if (figures.disagreements > 0) violations.push(`${figures.disagreements} intents disagree with the ledger`);
  if (figures.appliedIdUnknownDeposits > 0) {
    violations.push(`${figures.appliedIdUnknownDeposits} applied deposits lack the id their webhook carries`);
  }
  for (const currency of new Set([...Object.keys(input.moneyBefore), ...Object.keys(input.moneyAfter)])) {
    const before = input.moneyBefore[currency] ?? 0;
    const after = input.moneyAfter[currency] ?? 0;
    if (Math.abs(before - after) > 1e-6)
      violations.push(`money not conserved in ${currency}: ${before} -> ${after}`);
  }
  return { figures: { ...figures, appliedTwice }, violations };
}
