/** The order the journal bench runs its set-ups in, round by round. */

/**
 * The set-ups in the order round `round` runs them: each round starts one further along. A load's
 * sandbox process sits idle while the other loads run; with no journal run both first and last in
 * each of four rounds at 0 ms, the first run's sandbox used 14–36 % more CPU per payment every time
 * and did 13–19 % fewer payments in three of the rounds. Every ratio is read against no journal,
 * which always ran first, so the journals looked better than they are: the Redis floor, a round
 * trip added to every payment, read 1.05–1.37× of no journal. An untimed round of no journal now
 * wakes each load first, which took the sandbox's excess away; turning the order takes what is left
 * off any one set-up: first in one round of five at most, its median drops that round.
 */
export function inTurn<T>(setups: readonly T[], round: number): T[] {
  const start = round % setups.length;
  return [...setups.slice(start), ...setups.slice(0, start)];
}
