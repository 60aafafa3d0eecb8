import { WalletConfigError } from '../../index.js';
import { buildLoginUrl, WalletLoginUrlError } from '../../login.js';
import { parseDuration, SANDBOX_LIMITS } from '../../testing/index.js';
import { UsageError } from '../errors.js';

/**
 * Checks of sandbox command-line values made before anything is sent, so a wrong command line
 * is a usage error (exit 2) naming the argument as typed, not the control API's field name.
 */

/** `value` unchanged when it is an absolute http(s) URL; a usage error naming `what` otherwise. */
export function checkHttpUrl(value: string | undefined, what: string, command: string): string | undefined {
  if (value === undefined) return undefined;
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) {
    throw new UsageError(`${what} must be an absolute http(s) URL`, command);
  }
  return value;
}

/**
 * `value` unchanged when `buildLoginUrl` takes it as a redirect URL (https, or http to a loopback
 * host), as the merchant's app will have to; a usage error naming `what` otherwise.
 */
export function checkRedirectUrl(
  value: string | undefined,
  what: string,
  command: string,
): string | undefined {
  if (value === undefined) return undefined;
  try {
    buildLoginUrl({ authUrl: 'http://127.0.0.1/auth', appId: 'app', redirectUrl: value });
  } catch (error) {
    if (!(error instanceof WalletLoginUrlError)) throw error;
    // Its message starts with the parameter's name in the SDK (redirectUrl); the user typed `what`.
    throw new UsageError(`${what} ${error.message.replace(/^redirectUrl /, '')}`, command);
  }
  return value;
}

/**
 * `value` unchanged when it reads as a duration (`30s`, `1500ms`, `5m`, `2h`) of at most ten years
 * (the sandbox's own bound); a usage error naming `what` and the problem otherwise.
 */
export function checkDuration(value: string | undefined, what: string, command: string): string | undefined {
  if (value === undefined) return undefined;
  try {
    parseDuration(value, what);
  } catch (error) {
    if (!(error instanceof WalletConfigError)) throw error;
    throw new UsageError(`${what} ${error.issues[0]?.message ?? 'must be a duration'}`, command);
  }
  return value;
}

/** Two decimals at most, as the sandbox keeps money in hundredths. */
const AMOUNT_TEXT = /^\d+(\.\d{1,2})?$/;

/** `value` as a number when it is a balance the sandbox accepts; a usage error naming `what` otherwise. */
export function checkBalance(value: string, what: string, command: string): number {
  const amount = AMOUNT_TEXT.test(value) ? Number(value) : Number.NaN;
  const { max } = SANDBOX_LIMITS.balance;
  if (!(amount <= max)) {
    throw new UsageError(
      `${what} must be a number from 0 to ${max} with at most two decimals, such as 20 or 12.50`,
      command,
    );
  }
  return amount;
}

/**
 * A webhook retry schedule typed as comma-separated durations (`1m,5m,30m,1h`) as ms, each within
 * the sandbox's bound (a week) and 1 to 19 of them; a usage error naming `what` otherwise.
 */
export function parseSchedule(
  value: string | undefined,
  what: string,
  command: string,
): number[] | undefined {
  if (value === undefined) return undefined;
  const words = value.split(',').map((word) => word.trim());
  const { max } = SANDBOX_LIMITS.webhookRetryDelayMs;
  if (words.length > 19) throw new UsageError(`${what} lists at most 19 waits`, command);
  return words.map((word, index) => {
    let ms = Number.NaN;
    try {
      ms = parseDuration(word, what);
    } catch (error) {
      if (!(error instanceof WalletConfigError)) throw error;
    }
    if (!(ms <= max) || !Number.isInteger(ms)) {
      throw new UsageError(
        `${what} wait ${index + 1} must be a duration such as 30s, 5m or 2h, at most 7d (${max} ms)`,
        command,
      );
    }
    return ms;
  });
}

/** `--webhook-attempts N`, shared by `sandbox` and `sandbox webhook-retries`. */
export const WEBHOOK_ATTEMPTS_OPTION = {
  type: 'integer',
  value: 'N',
  min: SANDBOX_LIMITS.webhookAttempts.min,
  max: SANDBOX_LIMITS.webhookAttempts.max,
  help: 'attempts per webhook delivery, the first included\n(default: one more than the schedule has waits)',
} as const;

/** `--webhook-schedule LIST`, shared by `sandbox` and `sandbox webhook-retries`. */
export const WEBHOOK_SCHEDULE_OPTION = {
  type: 'string',
  value: 'LIST',
  help: 'waits before each retry, sandbox clock, such as 1m,5m,30m,1h\n(default: 1m,5m,30m,1h,2h,4h,8h)',
} as const;
