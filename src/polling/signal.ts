/** What a caller's signal stops. */
interface Stoppable {
  stop(cause: 'aborted'): void;
}

/**
 * Runs following each caller signal. Many waits commonly share one signal (a shutdown signal),
 * so each signal gets one listener for all of them: 10,000 listeners would cost ~1.6 MB and
 * trip Node's "possible EventTarget memory leak" warning.
 */
const followers = new WeakMap<AbortSignal, Set<Stoppable>>();

/** Stops `run` when `signal` aborts, until {@link unfollowSignal}. */
export function followSignal(signal: AbortSignal, run: Stoppable): void {
  let runs = followers.get(signal);
  if (runs === undefined) {
    runs = new Set();
    followers.set(signal, runs);
    signal.addEventListener('abort', stopFollowers, { once: true });
  }
  runs.add(run);
}

/** Forgets `run`; the listener goes with the last follower of the signal. */
export function unfollowSignal(signal: AbortSignal, run: Stoppable): void {
  const runs = followers.get(signal);
  if (runs === undefined) return;
  runs.delete(run);
  if (runs.size > 0) return;
  followers.delete(signal);
  signal.removeEventListener('abort', stopFollowers);
}

function stopFollowers(event: Event): void {
  const signal = event.target as AbortSignal;
  const runs = followers.get(signal);
  followers.delete(signal);
  if (runs === undefined) return;
  for (const run of runs) run.stop('aborted');
}
