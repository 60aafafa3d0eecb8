import { WalletConfigError } from '../../errors.js';
import { checkLimit } from '../model/bounds.js';
import type { WebhookRetryOptions, WebhookRetryPolicy } from './webhook-types.js';

/**
 * The default waits between attempts, on the sandbox clock: growing gaps over hours, as payment
 * services retry (1 min, 5 min, 30 min, 1 h, 2 h, 4 h, 8 h: eight attempts over 15 h 36 min). A
 * merchant whose every instance is down for an hour still gets the result; a test that wants it at
 * once moves the clock (`sandbox advance 1h`) or sets a schedule of milliseconds.
 */
export const DEFAULT_WEBHOOK_SCHEDULE_MS: readonly number[] = [
  60_000, 300_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 28_800_000,
];

/**
 * The policy `options` describe. `schedule` lists the waits before the 2nd, 3rd, … attempt (its
 * last wait repeats when `attempts` asks for more); `backoffMs` is the short form of a doubling
 * schedule (`backoffMs`, 2×, 4×, …) with 3 attempts unless `attempts` says otherwise.
 * @throws {WalletConfigError} naming the field under `path` (`options.webhooks.schedule.2`).
 */
export function retryPolicy(options: WebhookRetryOptions, path: string): WebhookRetryPolicy {
  if (typeof options !== 'object' || options === null) throw new WalletConfigError(path, 'must be an object');
  const { attempts, backoffMs, schedule, timeoutMs } = options;
  if (schedule !== undefined && backoffMs !== undefined) {
    throw new WalletConfigError(
      `${path}.schedule`,
      'cannot be given with backoffMs: a schedule lists every wait',
    );
  }
  let waits: number[];
  if (backoffMs !== undefined) {
    const first = checkLimit('webhookBackoffMs', backoffMs, `${path}.backoffMs`);
    const count =
      attempts === undefined ? 2 : checkLimit('webhookAttempts', attempts, `${path}.attempts`) - 1;
    waits = Array.from({ length: Math.max(count, 1) }, (_, index) => first * 2 ** index);
  } else if (schedule !== undefined) {
    if (!Array.isArray(schedule) || schedule.length === 0 || schedule.length > 19) {
      throw new WalletConfigError(`${path}.schedule`, 'must be a list of 1 to 19 waits in ms');
    }
    waits = schedule.map((wait, index) =>
      checkLimit('webhookRetryDelayMs', wait, `${path}.schedule.${index}`),
    );
  } else {
    waits = [...DEFAULT_WEBHOOK_SCHEDULE_MS];
  }
  const total =
    attempts === undefined
      ? backoffMs === undefined
        ? waits.length + 1
        : 3
      : checkLimit('webhookAttempts', attempts, `${path}.attempts`);
  return {
    attempts: total,
    scheduleMs: Array.from(
      { length: total - 1 },
      (_, index) => waits[Math.min(index, waits.length - 1)] as number,
    ),
    timeoutMs:
      timeoutMs === undefined ? 2_000 : checkLimit('webhookTimeoutMs', timeoutMs, `${path}.timeoutMs`),
  };
}

/**
 * A retry due within this much real time is waited for by `idle()`, as the attempt in flight is: a
 * schedule of milliseconds (a test setting) then finishes before `idle()` resolves, while the
 * default schedule's waits of minutes and hours leave the delivery `scheduled`. @internal
 */
export const IDLE_RETRY_MS = 1_000;

/** A delivery waiting for its next attempt: how to stop the wait, and to end it as failed. @internal */
export interface WaitingRetry {
  cancel(): void;
  fail(): void;
}
