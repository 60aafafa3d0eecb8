/** The final checks of the Restate soak, from the sandbox's own ledger, the journal and the orders. */

/** One journal row, as read back. */
export interface RestateJournalRow {
  readonly reference_id: string;
  readonly state: string;
  readonly transaction_id: string | null;
  readonly transaction_status: string | null;
  readonly settled: boolean;
}

/** One fulfilment row: an order fulfilled, how many runs of the step reached it, and whether they disagreed. */
export interface FulfilmentRow {
  readonly order_id: string;
  readonly reference_id: string;
  readonly status: string;
  readonly runs: number;
  readonly conflicting: boolean;
}

/** What the checks need of a ledger transaction. */
export interface RestateLedgerEntry {
  readonly transaction_id: string;
  readonly reference_id: string | undefined;
  readonly transaction_status: string;
}

/** The checks' inputs: every order submitted and what its invocation returned. */
export interface RestateSoakInput {
  readonly orders: ReadonlyMap<string, { readonly status: string; readonly referenceId: string } | undefined>;
  readonly rows: readonly RestateJournalRow[];
  readonly fulfilments: readonly FulfilmentRow[];
  readonly ledger: readonly RestateLedgerEntry[];
  /** Only ledger entries and journal rows whose reference starts with this are the soak's. */
  readonly prefix: string;
}

/** Figures and every broken rule. */
export interface RestateSoakResult {
  readonly figures: Record<string, number>;
  readonly violations: string[];
}

const FINAL = new Set(['completed', 'failed']);

/**
 * Checks: no reference paid twice; every order's invocation returned a final outcome, agreeing with
 * the ledger; every order fulfilled exactly once with that outcome; the journal equal to the ledger
 * (an accepted intent for each ledger entry with its id and status, none for a refusal, none open),
 * and every final payment settled.
 */
export function checkRestateSoak(input: RestateSoakInput): RestateSoakResult {
  const violations: string[] = [];
  const ledger = new Map<string, RestateLedgerEntry[]>();
  for (const entry of input.ledger) {
    if (!entry.reference_id?.startsWith(input.prefix)) continue;
    ledger.set(entry.reference_id, [...(ledger.get(entry.reference_id) ?? []), entry]);
  }
  const paidTwice = [...ledger.values()].filter((entries) => entries.length > 1).length;
  if (paidTwice > 0) violations.push(`${paidTwice} references paid more than once`);

  const figures = {
    orders: input.orders.size,
    completed: 0,
    failed: 0,
    refused: 0,
    unfinished: 0,
    paidTwice,
    outcomeDisagreesWithLedger: 0,
    fulfilledNotOnce: 0,
    fulfilmentConflicts: 0,
    fulfilStepReruns: 0,
    journalDisagreesWithLedger: 0,
    ledgerWithoutJournal: 0,
    unsettled: 0,
  };
  const fulfilled = new Map(input.fulfilments.map((row) => [row.order_id, row]));
  for (const [orderId, outcome] of input.orders) {
    if (outcome === undefined || !['completed', 'failed', 'refused'].includes(outcome.status)) {
      figures.unfinished += 1;
      continue;
    }
    figures[outcome.status as 'completed' | 'failed' | 'refused'] += 1;
    const entries = ledger.get(outcome.referenceId) ?? [];
    const agrees =
      outcome.status === 'refused'
        ? entries.length === 0
        : entries.length === 1 && entries[0]?.transaction_status === outcome.status;
    if (!agrees) figures.outcomeDisagreesWithLedger += 1;
    const row = fulfilled.get(orderId);
    if (row === undefined || row.status !== outcome.status || row.reference_id !== outcome.referenceId)
      figures.fulfilledNotOnce += 1;
    if (row?.conflicting) figures.fulfilmentConflicts += 1;
    if (row !== undefined && row.runs > 1) figures.fulfilStepReruns += row.runs - 1;
  }
  const unknownOrders = input.fulfilments.filter((row) => !input.orders.has(row.order_id)).length;
  figures.fulfilledNotOnce += unknownOrders;

  const journaled = new Set<string>();
  for (const row of input.rows) {
    if (!row.reference_id.startsWith(input.prefix)) continue;
    journaled.add(row.reference_id);
    const entries = ledger.get(row.reference_id) ?? [];
    const entry = entries[0];
    const accepted = ['accepted', 'completed', 'failed'].includes(row.state);
    const agrees = accepted
      ? entry !== undefined &&
        (row.transaction_id === null || row.transaction_id === entry.transaction_id) &&
        row.transaction_status === entry.transaction_status
      : (row.state === 'refused' || row.state === 'closed') && entry === undefined;
    if (!agrees) figures.journalDisagreesWithLedger += 1;
    if (FINAL.has(row.state) && !row.settled) figures.unsettled += 1;
  }
  figures.ledgerWithoutJournal = [...ledger.keys()].filter((reference) => !journaled.has(reference)).length;

  const rules: [number, string][] = [
    [figures.unfinished, 'orders without a final outcome'],
    [figures.outcomeDisagreesWithLedger, "orders whose outcome disagrees with the sandbox's ledger"],
    [figures.fulfilledNotOnce, 'orders not fulfilled exactly once with their outcome'],
    [figures.fulfilmentConflicts, 'orders whose fulfil step ran with two different outcomes'],
    [figures.journalDisagreesWithLedger, "journal intents that disagree with the sandbox's ledger"],
    [figures.ledgerWithoutJournal, 'payments in the ledger without a journal intent'],
    [figures.unsettled, 'final payments the journal never settled'],
  ];
  for (const [count, what] of rules) if (count > 0) violations.push(`${count} ${what}`);
  return { figures, violations };
}
