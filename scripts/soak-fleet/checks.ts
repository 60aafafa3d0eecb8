/** The final checks of `npm run soak:fleet`, from the sandbox's ledger, the journal and the settlements. */
import { ACCEPTED_STATES, type PaymentIntentState } from '../../src/journal/types.js';

/** One journal row, as read back. */
export interface FleetRow {
  reference_id: string;
  state: PaymentIntentState;
  transaction_id: string | null;
  transaction_status: string | null;
  settled_ms: string | null;
}

/** What the checks need of a sandbox transaction. */
export interface FleetLedgerEntry {
  readonly transaction_id: string;
  readonly reference_id: string | undefined;
  readonly transaction_status: string;
}

export interface FleetInput {
  rows: readonly FleetRow[];
  ledger: readonly FleetLedgerEntry[];
  /**
   * How many `onSettled` runs committed their fulfilment, by reference id. On a journal that
   * settles in a transaction (PostgreSQL) more than one breaks a rule; elsewhere it is the
   * documented at-least-once case (a kill between the callback's return and `settledAt`):
   * reported, and harmless to an idempotent fulfilment, which the soak's is.
   */
  completions: ReadonlyMap<string, number>;
  /** Whether the fulfilment commits in the settlement's own transaction: exactly once is then the rule. */
  settlesInTransaction: boolean;
  /** When each dropped deposit result was sent, by transaction id (ms). */
  dropped: ReadonlyMap<string, number>;
  /** What `journalHealth()` reports stuck, by reference id, with why. */
  stuck: ReadonlyMap<string, string>;
  moneyBefore: Record<string, number>;
  moneyAfter: Record<string, number>;
}

const FINAL = new Set(['completed', 'failed']);

/** Figures and every broken rule. */
export function checkFleet(input: FleetInput): { figures: Record<string, number>; violations: string[] } {
  const violations: string[] = [];
  const ledger = new Map<string, FleetLedgerEntry[]>();
  for (const entry of input.ledger) {
    if (!entry.reference_id?.startsWith('fleet-')) continue;
    ledger.set(entry.reference_id, [...(ledger.get(entry.reference_id) ?? []), entry]);
  }
  const figures = {
    payments: input.rows.length,
    settled: 0,
    refused: 0,
    open: 0,
    pending: 0,
    unsettled: 0,
    stuckNoTransactionId: 0,
    stuckOther: 0,
    chargedTwice: [...ledger.values()].filter((entries) => entries.length > 1).length,
    disagreements: 0,
    callbacksExactlyOnce: 0,
    callbacksTwiceOrMore: 0,
    callbacksMissing: 0,
    missedCallbacks: 0,
    worstMissedToSettledMs: 0,
  };
  const byTransaction = new Map(input.rows.map((row) => [row.transaction_id, row]));
  for (const row of input.rows) {
    const entry = ledger.get(row.reference_id)?.[0];
    const stuck = input.stuck.get(row.reference_id);
    if (stuck !== undefined) {
      if (stuck === 'no_transaction_id') figures.stuckNoTransactionId += 1;
      else figures.stuckOther += 1;
      // Reported with a reason: it must still agree with the ledger on whether money moved.
      if (ACCEPTED_STATES.has(row.state) !== (entry !== undefined)) figures.disagreements += 1;
      continue;
    }
    if (row.state === 'sending' || row.state === 'unknown') figures.open += 1;
    if (row.state === 'refused' || row.state === 'closed') figures.refused += 1;
    const agrees = ACCEPTED_STATES.has(row.state)
      ? entry !== undefined && row.transaction_status === entry.transaction_status
      : (row.state === 'refused' || row.state === 'closed') && entry === undefined;
    if (!agrees) figures.disagreements += 1;
    if (!ACCEPTED_STATES.has(row.state)) continue;
    if (!FINAL.has(row.transaction_status ?? '')) figures.pending += 1;
    else if (row.settled_ms === null) figures.unsettled += 1;
    else figures.settled += 1;
    const runs = input.completions.get(row.reference_id) ?? 0;
    if (row.settled_ms !== null && runs === 1) figures.callbacksExactlyOnce += 1;
    if (runs > 1) figures.callbacksTwiceOrMore += 1;
    if (row.settled_ms !== null && runs === 0) figures.callbacksMissing += 1;
  }
  for (const [transactionId, droppedAt] of input.dropped) {
    const row = byTransaction.get(transactionId);
    if (row?.settled_ms == null) continue;
    figures.missedCallbacks += 1;
    figures.worstMissedToSettledMs = Math.max(
      figures.worstMissedToSettledMs,
      Number(row.settled_ms) - droppedAt,
    );
  }
  const rules: [number, string][] = [
    [figures.chargedTwice, 'references charged more than once'],
    [figures.disagreements, 'journal intents disagree with the ledger'],
    [figures.open, 'intents still sending or unknown'],
    [figures.pending, 'payments still pending'],
    [figures.unsettled, 'final payments not settled'],
    [figures.callbacksMissing, 'settled references whose onSettled never completed'],
    [
      input.settlesInTransaction ? figures.callbacksTwiceOrMore : 0,
      'references whose onSettled committed more than once',
    ],
  ];
  for (const [count, what] of rules) if (count > 0) violations.push(`${count} ${what}`);
  for (const currency of new Set([...Object.keys(input.moneyBefore), ...Object.keys(input.moneyAfter)])) {
    const before = input.moneyBefore[currency] ?? 0;
    const after = input.moneyAfter[currency] ?? 0;
    if (Math.abs(before - after) > 1e-6)
      violations.push(`money not conserved in ${currency}: ${before} -> ${after}`);
  }
  return { figures, violations };
}
