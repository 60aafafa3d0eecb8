/**
 * A virtual clock for the lifecycle model: `setTimeout`, `setInterval`, `Date` and
 * `performance.now` are replaced while it is installed, and time moves only when everything that can
 * run has run, straight to the next timer. A run that waits 30 s of client time-outs, journal delays
 * and leases takes the milliseconds its code takes. Everything it drives must stay in this process
 * (an in-process fetch to the sandbox, a memory journal): real I/O would be outrun by the clock.
 */

interface Timer {
  readonly id: number;
  at: number;
  readonly run: () => void;
  readonly every: number | undefined;
}

const real = {
  setTimeout: globalThis.setTimeout,
  clearTimeout: globalThis.clearTimeout,
  setInterval: globalThis.setInterval,
  clearInterval: globalThis.clearInterval,
  setImmediate: globalThis.setImmediate,
  Date: globalThis.Date,
  performanceNow: performance.now.bind(performance),
};

/** A timer handle as Node code uses one (`unref()`, `ref()`, `hasRef()`, `refresh()`). */
class Handle {
  constructor(
    readonly id: number,
    private readonly clock: VirtualClock,
  ) {}
  unref() {
    return this;
  }
  ref() {
    return this;
  }
  hasRef() {
    return true;
  }
  refresh() {
    this.clock.refresh(this.id);
    return this;
  }
  [Symbol.toPrimitive]() {
    return this.id;
  }
}

/** The clock; {@link VirtualClock.install} puts it in place of the real one until `uninstall()`. */
export class VirtualClock {
  #now: number;
  #serial = 0;
  readonly #timers = new Map<number, Timer>();
  /** How far time moved, in virtual milliseconds, since it was made. */
  advanced = 0;

  constructor(start = Date.now()) {
    this.#now = start;
  }

  /** The virtual time, ms since the epoch. */
  get now(): number {
    return this.#now;
  }

  #add(run: () => void, ms: number | undefined, every: boolean): Handle {
    const id = ++this.#serial;
    const delay = Math.max(1, Math.floor(Number(ms) || 0));
    this.#timers.set(id, { id, at: this.#now + delay, run, every: every ? delay : undefined });
    return new Handle(id, this);
  }

  refresh(id: number): void {
    const timer = this.#timers.get(id);
    if (timer !== undefined) timer.at = this.#now + (timer.every ?? 1);
  }

  #clear(handle: unknown): void {
    if (handle === undefined || handle === null) return;
    this.#timers.delete(Number(handle as number));
  }

  /** Replaces the global timers and clocks with this one. */
  install(): void {
    const clock = this;
    globalThis.setTimeout = ((fn: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) =>
      clock.#add(() => fn(...args), ms, false)) as unknown as typeof setTimeout;
    globalThis.setInterval = ((fn: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) =>
      clock.#add(() => fn(...args), ms, true)) as unknown as typeof setInterval;
    globalThis.clearTimeout = ((handle: unknown) => clock.#clear(handle)) as typeof clearTimeout;
    globalThis.clearInterval = ((handle: unknown) => clock.#clear(handle)) as typeof clearInterval;
    const RealDate = real.Date;
    class VirtualDate extends RealDate {
      constructor(...args: unknown[]) {
        if (args.length === 0) super(clock.#now);
        else super(...(args as [string]));
      }
      static override now() {
        return clock.#now;
      }
    }
    globalThis.Date = VirtualDate as DateConstructor;
    const start = this.#now;
    performance.now = () => clock.#now - start + 1;
  }

  /** Puts the real clock back. */
  uninstall(): void {
    globalThis.setTimeout = real.setTimeout;
    globalThis.clearTimeout = real.clearTimeout;
    globalThis.setInterval = real.setInterval;
    globalThis.clearInterval = real.clearInterval;
    globalThis.Date = real.Date;
    performance.now = real.performanceNow;
  }

  /** Lets every promise and immediate that can run now run (a few turns of the real event loop). */
  async #settle(): Promise<void> {
    for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => real.setImmediate(resolve));
  }

  /** Fires the earliest timer, moving time to it; `false` when none is set. */
  #fireNext(): boolean {
    let next: Timer | undefined;
    for (const timer of this.#timers.values()) if (next === undefined || timer.at < next.at) next = timer;
    if (next === undefined) return false;
    if (next.at > this.#now) {
      this.advanced += next.at - this.#now;
      this.#now = next.at;
    }
    if (next.every === undefined) this.#timers.delete(next.id);
    else next.at = this.#now + next.every;
    next.run();
    return true;
  }

  /** Waits for `work`, moving time from timer to timer whenever nothing else can run. */
  async run<T>(work: Promise<T>): Promise<T> {
    let done = false;
    const watched = work.finally(() => {
      done = true;
    });
    watched.catch(() => {});
    for (;;) {
      await this.#settle();
      if (done) return watched;
      if (!this.#fireNext()) {
        // Nothing virtual left to wait for: something real is under way (it should not be).
        await new Promise((resolve) => real.setTimeout(resolve, 1));
      }
    }
  }

  /** Lets `ms` of virtual time pass, running every timer due meanwhile. */
  async sleep(ms: number): Promise<void> {
    await this.run(new Promise<void>((resolve) => setTimeout(resolve, ms)));
  }
}
