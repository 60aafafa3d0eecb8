import { WalletConfigError } from '../../errors.js';
import { MAX_TIMER_MS } from '../../limits.js';
import { checkLimit, SANDBOX_LIMITS } from './bounds.js';

/**
 * The dates the sandbox can show: `date_completed` is `YYYYMMDDHHMMSS`, which has room for
 * four-digit years only, and past year 275760 a `Date` is invalid and formatting it throws.
 */
const FIRST_TIME = Date.parse('0001-01-01T00:00:00.000Z');
const LAST_TIME = Date.parse('9999-12-31T23:59:59.999Z');

/** A task waiting on the sandbox clock. */
interface Task {
  readonly dueAt: number;
  readonly order: number;
  readonly run: () => void;
  timer: NodeJS.Timeout | undefined;
}

/** The sandbox's view of time, which tests can move forward without waiting. */
export interface SandboxClock {
  /** The sandbox's current time: the real (or `now` option's) time plus every `advance` so far. */
  now(): Date;
  /** How far `advance` has moved the clock ahead of real time, in ms. */
  readonly offsetMs: number;
  /** How many timed events (settlements, late deliveries) are waiting. */
  readonly pending: number;
  /**
   * Moves the clock `ms` forward and runs, in time order, every timed event due by then:
   * pending deposits that settle in that time and webhook deliveries held back until then.
   * Throws `WalletConfigError` (and moves nothing) unless `ms` is a number from 0 to
   * `SANDBOX_LIMITS.clockAdvanceMs.max` (ten years) and the clock stays before the year 10000.
   * @returns how many events ran
   * @example
   * sandbox.clock.advance(30_000); // settles what the next 30 s would settle
   */
  advance(ms: number): number;
}

/**
 * A clock that runs at real speed and can jump ahead. Every timed event of the sandbox is
 * scheduled here, so `advance` fires it at once instead of after a real wait. @internal
 */
export class VirtualClock implements SandboxClock {
  #offsetMs = 0;
  #order = 0;
  #tasks: Task[] = [];
  readonly #base: () => Date;

  constructor(base: () => Date) {
    this.#base = base;
  }

  /**
   * Throws `WalletConfigError` when the `now` option gives no date the sandbox can show. Rules
   * read the time before they change anything, so such a request changes nothing.
   */
  now(): Date {
    const base = this.#base();
    const time = base instanceof Date ? base.getTime() + this.#offsetMs : Number.NaN;
    if (!(time >= FIRST_TIME && time <= LAST_TIME)) {
      throw new WalletConfigError('options.now', 'must return a valid Date from year 1 to 9999');
    }
    return new Date(time);
  }

  get offsetMs(): number {
    return this.#offsetMs;
  }

  get pending(): number {
    return this.#tasks.length;
  }

  /** Real time plus the offset: what task deadlines are measured in, whatever the `now` option says. */
  #tick(): number {
    return Date.now() + this.#offsetMs;
  }

  /** Runs `run` once `delayMs` of sandbox time has passed. @returns a function that cancels it */
  schedule(delayMs: number, run: () => void): () => void {
    const task: Task = { dueAt: this.#tick() + delayMs, order: ++this.#order, run, timer: undefined };
    this.#tasks.push(task);
    this.#arm(task);
    return () => this.#drop(task);
  }

  advance(ms: number): number {
    checkLimit('clockAdvanceMs', ms, 'ms');
    // Checked before the offset moves: a clock past what a date can show broke every later request.
    if (this.now().getTime() + ms > LAST_TIME) {
      throw new WalletConfigError('ms', 'would move the sandbox clock past 9999-12-31');
    }
    this.#offsetMs += ms;
    let ran = 0;
    try {
      // Tasks that due tasks schedule within the window run too, in time order.
      for (let task = this.#nextDue(); task !== undefined; task = this.#nextDue()) {
        this.#drop(task);
        task.run();
        ran++;
      }
    } finally {
      // Even when a task threw, the rest keep their place on the new time.
      for (const task of this.#tasks) this.#arm(task);
    }
    return ran;
  }

  /** Cancels every waiting task. */
  clear(): void {
    for (const task of this.#tasks) clearTimeout(task.timer);
    this.#tasks = [];
  }

  #nextDue(): Task | undefined {
    const now = this.#tick();
    let next: Task | undefined;
    for (const task of this.#tasks) {
      if (task.dueAt > now) continue;
      if (!next || task.dueAt < next.dueAt || (task.dueAt === next.dueAt && task.order < next.order)) {
        next = task;
      }
    }
    return next;
  }

  #arm(task: Task): void {
    clearTimeout(task.timer);
    // A deadline beyond the longest timer is re-armed when that timer fires.
    task.timer = setTimeout(
      () => {
        if (task.dueAt > this.#tick()) return this.#arm(task);
        this.#drop(task);
        task.run();
      },
      Math.min(MAX_TIMER_MS, Math.max(0, task.dueAt - this.#tick())),
    );
    task.timer.unref();
  }

  #drop(task: Task): void {
    clearTimeout(task.timer);
    this.#tasks = this.#tasks.filter((t) => t !== task);
  }
}

const UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * Reads a duration: a number of ms, or text such as `30s`, `1500ms`, `5m`, `2h`, `1d`, at most
 * `SANDBOX_LIMITS.clockAdvanceMs.max` (ten years), the longest time any sandbox input takes.
 * Throws `WalletConfigError` naming `field` for anything else.
 */
export function parseDuration(value: unknown, field: string): number {
  const match = typeof value === 'string' ? /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(value) : null;
  const ms =
    typeof value === 'number'
      ? value
      : match
        ? Number(match[1]) * (UNITS[match[2] ?? 'ms'] ?? 1)
        : Number.NaN;
  if (!(ms >= 0)) {
    throw new WalletConfigError(field, 'must be a duration such as 30s, 1500ms, 5m or 2h, or a number of ms');
  }
  if (!(ms <= SANDBOX_LIMITS.clockAdvanceMs.max)) {
    throw new WalletConfigError(field, `must be at most ${SANDBOX_LIMITS.clockAdvanceMs.max} ms (ten years)`);
  }
  return typeof value === 'number' ? value : Math.round(ms);
}
