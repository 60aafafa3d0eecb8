import { describeLimit, withinLimit } from './bounds.js';

/**
 * Balances are kept as integer hundredths so that no sequence of transfers can
 * create or lose a fraction of a unit through floating-point rounding.
 */
const SCALE = 100;

/** The largest amount one request may move, in major units. */
export const MAX_AMOUNT = 1_000_000_000;

/** Whether `value` has at most two decimal places (within float noise). */
function hasTwoDecimals(value: number): boolean {
  return Math.abs(value * SCALE - Math.round(value * SCALE)) < 1e-6;
}

/**
 * The amount of a request in hundredths, or `undefined` when it is not a finite
 * number greater than zero, with at most two decimals and at most {@link MAX_AMOUNT}.
 */
export function amountToCents(value: unknown): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  if (value <= 0 || value > MAX_AMOUNT || !hasTwoDecimals(value)) return undefined;
  return Math.round(value * SCALE);
}

/**
 * A seeded or set balance in hundredths: like {@link amountToCents}, but from 0 to
 * `SANDBOX_LIMITS.balance.max`, low enough that sums of balances stay exact integers.
 */
export function balanceToCents(value: unknown): number | undefined {
  if (!withinLimit('balance', value) || !hasTwoDecimals(value)) return undefined;
  return Math.round(value * SCALE);
}

/** The problem of a balance {@link balanceToCents} refuses, as error messages say it. */
export const BALANCE_PROBLEM = `${describeLimit('balance')} with at most two decimals`;

/** Hundredths back to major units, as sent on the wire. */
export function centsToAmount(cents: number): number {
  return cents / SCALE;
}

/** The status endpoint's string form of an amount: always two decimals, e.g. `"150.00"`. */
export function centsToAmountString(cents: number): string {
  return (cents / SCALE).toFixed(2);
}
