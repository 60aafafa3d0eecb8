/**
 * The Redis journal's one clock: the server's `TIME`, read once and then carried forward by this
 * process's monotonic clock (an interval measured in one process), read again every minute and after
 * a failure. Every time the journal writes (recording, changes, leases, due times) and every lease it
 * judges is on it, so instances whose own clocks differ write and judge times alike, without a
 * round trip per write.
 */

/** How long a reading of `TIME` is carried forward before it is read again. */
const RESYNC_MS = 60_000;

/** The server's time in ms since the epoch; `latest()` answers it at once while a reading is fresh. */
export interface RedisStoreClock {
  /** The server's time, reading `TIME` first when no fresh reading is held. */
  (): Promise<number>;
  /** The server's time from a fresh reading without waiting; `undefined` when one must be read first. */
  latest(): number | undefined;
}

/** A clock reading the server's time through `readTime` (ms since the epoch). */
export function redisStoreClock(readTime: () => Promise<number>): RedisStoreClock {
  let base: { server: number; at: number } | undefined;
  let reading: Promise<number> | undefined;
  const read = () => {
    reading ??= (async () => {
      try {
        const at = performance.now();
        const server = await readTime();
        // The server answered somewhere within the round trip: take its middle.
        const now = performance.now();
        base = { server: server + (now - at) / 2, at: now };
        return base.server;
      } finally {
        reading = undefined;
      }
    })();
    return reading;
  };
  const latest = () => {
    if (base === undefined) return undefined;
    const elapsed = performance.now() - base.at;
    return elapsed > RESYNC_MS ? undefined : Math.round(base.server + elapsed);
  };
  const clock = async () => latest() ?? Math.round(await read());
  return Object.assign(clock, { latest });
}
