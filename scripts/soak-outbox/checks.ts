/** The final checks of the outbox soak, from the journal, the outbox, the consumer and the ledger. */

/** A settled journal intent. */
export interface SettledRow {
  readonly reference_id: string;
  readonly transaction_status: string | null;
}

/** An outbox row. */
export interface OutboxRow {
  readonly reference_id: string;
  readonly published: boolean;
}

/** The checks' inputs; `received` holds every message the consumer got, duplicates included. */
export interface OutboxSoakInput {
  readonly settled: readonly SettledRow[];
  readonly outbox: readonly OutboxRow[];
  readonly received: readonly { readonly key: string; readonly value: string }[];
  /** The sandbox's status of each reference id. */
  readonly ledger: ReadonlyMap<string | undefined, string>;
}

/** Figures and every broken rule. */
export interface OutboxSoakResult {
  readonly figures: {
    settled: number;
    outboxRows: number;
    messages: number;
    duplicates: number;
    lost: number;
    phantom: number;
    disagreeing: number;
    unpublished: number;
  };
  readonly violations: string[];
}

/**
 * Checks: every settled payment has its outbox row and reached the consumer (none lost); every row
 * and message is of a settled payment (no phantom); every message carries the journal's and the
 * ledger's status; no row is left unpublished.
 */
export function checkOutboxSoak(input: OutboxSoakInput): OutboxSoakResult {
  const keys = new Map<string, string[]>();
  for (const message of input.received)
    keys.set(message.key, [...(keys.get(message.key) ?? []), message.value]);
  const settled = new Map(input.settled.map((row) => [row.reference_id, row]));
  const outbox = new Set(input.outbox.map((row) => row.reference_id));
  const figures = {
    settled: input.settled.length,
    outboxRows: input.outbox.length,
    messages: input.received.length,
    duplicates: input.received.length - keys.size,
    lost: input.settled.filter((row) => !outbox.has(row.reference_id) || !keys.has(row.reference_id)).length,
    phantom: [...new Set([...keys.keys(), ...outbox])].filter((key) => !settled.has(key)).length,
    disagreeing: 0,
    unpublished: input.outbox.filter((row) => !row.published).length,
  };
  for (const [key, values] of keys) {
    const status = settled.get(key)?.transaction_status;
    const agrees = values.every((value) => (JSON.parse(value) as { status?: unknown }).status === status);
    if (!agrees || input.ledger.get(key) !== status) figures.disagreeing += 1;
  }
  const rules: [number, string][] = [
    [figures.lost, 'settled payments whose event never reached the consumer'],
    [figures.phantom, 'events of payments that were never settled'],
    [figures.disagreeing, "events whose status differs from the journal's or the ledger's"],
    [figures.unpublished, 'outbox rows never published'],
  ];
  const violations = rules.filter(([n]) => n > 0).map(([n, what]) => `${n} ${what}`);
  return { figures, violations };
}
