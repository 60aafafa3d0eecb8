import { WalletResponseValidationError } from '../errors.js';

/**
 * Converts a `date_completed` value (`YYYYMMDDHHMMSS` as an integer, e.g.
 * `20261121143005`) into a `Date`. The spec gives no time zone; the value is read as UTC.
 *
 * @throws {WalletResponseValidationError} when the value is not such an integer or names an impossible date (e.g. 30 February).
 * @example
 * parseDateCompleted(20261121143005).toISOString(); // '2026-11-21T14:30:05.000Z'
 */
export function parseDateCompleted(value: number | string): Date {
  const digits = typeof value === 'number' ? (Number.isSafeInteger(value) ? String(value) : '') : value;
  const match =
    typeof digits === 'string' ? /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(digits) : null;
  if (!match) {
    throw invalid(value, 'must be a 14-digit YYYYMMDDHHMMSS integer');
  }
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  const roundTrips =
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second;
  if (!roundTrips) throw invalid(value, 'is not a real calendar date and time');
  return date;
}

function invalid(value: unknown, problem: string): WalletResponseValidationError {
  return new WalletResponseValidationError({
    issues: [{ path: 'date_completed', message: `${problem} (got ${describe(value)})` }],
    subject: 'Invalid date_completed',
    body: value,
  });
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.slice(0, 40));
  if (typeof value === 'number') return String(value);
  return typeof value;
}
