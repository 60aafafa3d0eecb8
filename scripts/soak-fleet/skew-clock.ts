/**
 * A preload (`node --import`) that moves this process's clock by CLOCK_SKEW_MS milliseconds: `Date`
 * and `Date.now()` read that much ahead (or behind), as on a host whose clock is off. Timers and
 * `performance.now()` are left alone: they measure intervals, which a wrong clock does not change.
 */
const skew = Number(process.env.CLOCK_SKEW_MS ?? 0);
if (Number.isFinite(skew) && skew !== 0) {
  const RealDate = Date;
  class SkewedDate extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(RealDate.now() + skew);
      else super(...(args as [string]));
    }
    static override now() {
      return RealDate.now() + skew;
    }
  }
  globalThis.Date = SkewedDate as DateConstructor;
}
