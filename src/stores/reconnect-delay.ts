const FIRST_DELAY_MS = 100;
const LONGEST_DELAY_MS = 5_000;

/**
 * How long to wait before the `attempt`th attempt (from 0) to re-open a lost connection: doubling from
 * 100 ms to 5 s, each drawn from its upper half, so instances that lost their database together do
 * not all come back in the same millisecond.
 */
export function reconnectDelayMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(LONGEST_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.min(attempt, 16));
  return Math.round(ceiling * (0.5 + random() / 2));
}
