import { WalletRequestValidationError } from '../errors.js';
import { isPositiveMs, MAX_TIMER_MS, POSITIVE_MS } from '../limits.js';

/**
 * When the sweeper looks at what no callback settled: a `sending` intent after `sendingGraceMs`
 * unchanged; a pending payment first `firstCheckMs` after its last change, then at doubling
 * intervals up to `maxCheckIntervalMs`, until it is `stuckAfterMs` old, when it is reported stuck
 * instead of polled forever.
 */
export interface SweepSchedule {
  /**
   * How long a `sending` intent is left to the call that recorded it before the sweeper re-sends it.
   * @default 60000 (1 minute)
   */
  sendingGraceMs?: number | undefined;
  /**
   * The first look at a pending payment, after its last change.
   * @default 30000 (30 s)
   */
  firstCheckMs?: number | undefined;
  /**
   * The longest wait between two looks at a pending payment.
   * @default 3600000 (1 hour)
   */
  maxCheckIntervalMs?: number | undefined;
  /**
   * How old a pending payment may get before it is reported stuck rather than polled.
   * @default 259200000 (3 days)
   */
  stuckAfterMs?: number | undefined;
}

/** A schedule with every value set. */
export type FullSchedule = Required<{ [K in keyof SweepSchedule]: number }>;

/** The defaults of {@link SweepSchedule}, one table. */
export const DEFAULT_SCHEDULE: FullSchedule = {
  sendingGraceMs: 60_000,
  firstCheckMs: 30_000,
  maxCheckIntervalMs: 3_600_000,
  stuckAfterMs: 3 * 24 * 3_600_000,
};

/**
 * `schedule` over the defaults, each a positive number of milliseconds.
 * @throws {WalletRequestValidationError} naming the field at fault.
 */
export function fullSchedule(schedule: SweepSchedule | undefined, path: string): FullSchedule {
  const full = { ...DEFAULT_SCHEDULE };
  for (const key of Object.keys(DEFAULT_SCHEDULE) as (keyof FullSchedule)[]) {
    const value = schedule?.[key];
    if (value === undefined) continue;
    if (!isPositiveMs(value, MAX_TIMER_MS * 1000)) {
      throw new WalletRequestValidationError([{ path: `${path}.${key}`, message: POSITIVE_MS }]);
    }
    full[key] = value;
  }
  return full;
}

/** How long after its `checks`-th check a pending payment is due again: `firstCheckMs` doubled per check, capped. */
export function nextCheckDelay(schedule: FullSchedule, checks: number): number {
  return Math.min(schedule.maxCheckIntervalMs, schedule.firstCheckMs * 2 ** Math.min(checks, 30));
}
