/**
 * The Redis journal's one clock: the server's `TIME`, read once and then carried forward by this
 * process's monotonic clock (an interval measured in one process), read again every minute and after
 * a failure. Every time the journal writes (recording, changes, leases, due times) and every lease it
 * judges is on it, so instances whose own clocks differ write and judge times alike, without a
 * round trip per write.
 */

/** How long a reading of `TIME` is carried forward before it is read again. */
const RESYNC_MS = 60_000;

/** A clock reading the server's time through `readTime` (ms since the epoch). */
export function redisStoreClock(readTime: () => Promise<number>): () => Promise<number> {
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
  return async () => {
    if (base === undefined || performance.now() - base.at > RESYNC_MS) return Math.round(await read());
    return Math.round(base.server + (performance.now() - base.at));
  };
}
