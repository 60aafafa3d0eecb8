import { WalletConfigError } from '../../errors.js';
import { MAX_TIMER_MS } from '../../limits.js';

/** One numeric input's accepted range. */
export interface SandboxLimit {
  /** The smallest value accepted. */
  readonly min: number;
  /** The largest value accepted. */
  readonly max: number;
  /** Whether only whole numbers are accepted. */
  readonly integer: boolean;
  /** The unit, as error messages print it after the range (`ms`, `bytes`, ...); `''` for a count. */
  readonly unit: string;
}

const MS_PER_YEAR = 31_557_600_000; // 365.25 days
const MIB = 1_048_576;

/** The rows of {@link SANDBOX_LIMITS}, each with why its range is what it is. */
const LIMITS = {
  /** `clock.advance(ms)`, `POST /_sandbox/clock/advance`, `sandbox advance`: at most ten years. */
  clockAdvanceMs: { min: 0, max: 10 * MS_PER_YEAR, integer: false, unit: 'ms' },
  /** `autoSettleMs` and `--auto-settle-ms`: at most ten years of sandbox time. */
  autoSettleMs: { min: 0, max: 10 * MS_PER_YEAR, integer: false, unit: 'ms' },
  /** A delivery plan's `delayMs` (`late`, `out-of-order`), `--delay`: at most ten years of sandbox time. */
  deliveryDelayMs: { min: 0, max: 10 * MS_PER_YEAR, integer: false, unit: 'ms' },
  /** A `latency` fault's `ms`: real time a request is held, at most ten minutes. */
  faultLatencyMs: { min: 0, max: 600_000, integer: false, unit: 'ms' },
  /** An `oversized` fault's `bytes`: at most 64 MiB. */
  faultBytes: { min: 1, max: 64 * MIB, integer: true, unit: 'bytes' },
  /** A fault's `every` and `times` (`times` may also be `Infinity`), `planNext`'s `count`. */
  count: { min: 1, max: Number.MAX_SAFE_INTEGER, integer: true, unit: '' },
  /** `webhooks.attempts`: each retry doubles the wait, so more would wait for years. */
  webhookAttempts: { min: 1, max: 20, integer: true, unit: '' },
  /** `webhooks.backoffMs`: the wait before the second attempt, at most a minute. */
  webhookBackoffMs: { min: 0, max: 60_000, integer: true, unit: 'ms' },
  /** Each wait of `webhooks.schedule`, on the sandbox clock: at most a week, as services retry for days, not months. */
  webhookRetryDelayMs: { min: 0, max: 7 * 24 * 3_600_000, integer: true, unit: 'ms' },
  /** `webhooks.timeoutMs`: one attempt's time limit, at most ten minutes. */
  webhookTimeoutMs: { min: 1, max: 600_000, integer: true, unit: 'ms' },
  /** `webhooks.waitFor`'s `timeoutMs`: real time, at most what a timer can wait. */
  waitTimeoutMs: { min: 0, max: MAX_TIMER_MS, integer: true, unit: 'ms' },
  /** `maxBodyBytes`: at most 64 MiB. */
  maxBodyBytes: { min: 1, max: 64 * MIB, integer: true, unit: 'bytes' },
  /** A balance of the seed, `setBalance`, `putUser` or `sandbox balance`, in major units (two decimals at most). */
  balance: { min: 0, max: 1_000_000_000_000, integer: false, unit: '' },
} as const satisfies Record<SandboxLimitName, SandboxLimit>;

/** The name of one row of {@link SANDBOX_LIMITS}. */
export type SandboxLimitName =
  | 'clockAdvanceMs'
  | 'autoSettleMs'
  | 'deliveryDelayMs'
  | 'faultLatencyMs'
  | 'faultBytes'
  | 'count'
  | 'webhookAttempts'
  | 'webhookBackoffMs'
  | 'webhookRetryDelayMs'
  | 'webhookTimeoutMs'
  | 'waitTimeoutMs'
  | 'maxBodyBytes'
  | 'balance';

/**
 * The range of every number the sandbox takes from a caller: `createSandbox` options, the seed,
 * `setBalance`, faults, delivery plans, `clock.advance`, and the control API and CLI, which check
 * against this same table. A value outside its range is refused with a `WalletConfigError` naming
 * the field and the range (400 from the control API, a usage error from the CLI), before anything
 * changes.
 *
 * Why these maxima: time beyond ten years rehearses nothing a merchant backend does, and keeps
 * every sandbox date a four-digit year, so `date_completed` stays `YYYYMMDDHHMMSS`; a latency over
 * ten minutes outlasts any client time-out; 64 MiB is far past any response limit a client sets;
 * balances stay below 10^12 so that sums of them remain exact integers of hundredths.
 */
export const SANDBOX_LIMITS: Readonly<Record<SandboxLimitName, SandboxLimit>> = LIMITS;

/** `must be a number from 0 to 600000 ms`: the problem part of a refusal, from the table. */
export function describeLimit(name: SandboxLimitName): string {
  const { min, max, integer, unit } = SANDBOX_LIMITS[name];
  return `must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}${unit ? ` ${unit}` : ''}`;
}

/** Whether `value` is a number inside row `name` of {@link SANDBOX_LIMITS}. */
export function withinLimit(name: SandboxLimitName, value: unknown): value is number {
  const { min, max, integer } = SANDBOX_LIMITS[name];
  return (
    typeof value === 'number' &&
    Number.isFinite(value) &&
    value >= min &&
    value <= max &&
    (!integer || Number.isInteger(value))
  );
}

/**
 * `value` when it is inside row `name` of {@link SANDBOX_LIMITS}.
 * @throws {WalletConfigError} naming `field` and the range otherwise.
 */
export function checkLimit(name: SandboxLimitName, value: unknown, field: string): number {
  if (!withinLimit(name, value)) throw new WalletConfigError(field, describeLimit(name));
  return value;
}
