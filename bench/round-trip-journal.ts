/**
 * The floor under the journal of one server: a payment waits for one round trip to the server before
 * it is sent (a Redis `PING`, a PostgreSQL `SELECT 1`) and is recorded in memory. No journal of that
 * server costs less, since a payment's intent must reach the server before money moves; the bench
 * prints it beside the server's journal, so the journal's ratio is read against what one round trip
 * costs on this machine.
 */
import type { PaymentJournal } from '../src/index.js';

/** `memory`, whose records first wait for `roundTrip`. */
export function roundTripJournal(memory: PaymentJournal, roundTrip: () => Promise<unknown>): PaymentJournal {
  return {
    ...memory,
    async record(intent) {
      await roundTrip();
      return memory.record(intent);
    },
  };
}
