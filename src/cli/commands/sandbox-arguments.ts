import { parseDuration } from '../../testing/index.js';
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

/** `value` unchanged when it reads as a duration (`30s`, `1500ms`, `5m`, `2h`); a usage error naming `what` otherwise. */
export function checkDuration(value: string | undefined, what: string, command: string): string | undefined {
  if (value === undefined) return undefined;
  try {
    parseDuration(value, what);
  } catch {
    throw new UsageError(`${what} must be a duration such as 30s, 1500ms, 5m or 2h`, command);
  }
  return value;
}
