import { WalletConfigError } from '../../errors.js';
import { MAX_TIMER_MS } from '../../limits.js';

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
   * Throws `WalletConfigError` unless `ms` is a number >= 0.
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

  now(): Date {
    return new Date(this.#base().getTime() + this.#offsetMs);
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
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
      throw new WalletConfigError('ms', 'must be a number of milliseconds >= 0');
    }
    this.#offsetMs += ms;
    let ran = 0;
    // Tasks that due tasks schedule within the window run too, in time order.
    for (let task = this.#nextDue(); task !== undefined; task = this.#nextDue()) {
      this.#drop(task);
      task.run();
      ran++;
    }
    for (const task of this.#tasks) this.#arm(task);
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
 * Reads a duration: a number of ms, or text such as `30s`, `1500ms`, `5m`, `2h`, `1d`.
 * Throws `WalletConfigError` naming `field` for anything else.
 */
export function parseDuration(value: unknown, field: string): number {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  const match = typeof value === 'string' ? /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(value) : null;
  if (!match) {
    throw new WalletConfigError(field, 'must be a duration such as 30s, 1500ms, 5m or 2h, or a number of ms');
  }
  return Math.round(Number(match[1]) * (UNITS[match[2] ?? 'ms'] ?? 1));
}
