import { WalletResponseValidationError } from './errors.js';
import { decimalAmount } from './limits.js';

/**
 * Whether two amounts are the same money: compares a deposit's or withdrawal's `amount` (a number,
 * `150`) with the status endpoint's (a string, `"150.00"`) or with your own order's amount.
 *
 * The rule is exact decimal equality. A number counts as the decimal it prints as, which is the
 * decimal the API sent; a string as the decimal it spells. Leading and trailing zeros make no
 * difference, a rounding error does: `0.1 + 0.2` prints as `0.30000000000000004`, so it is not
 * `"0.30"`. Add amounts in minor units (cents) to avoid that. Currencies are not compared: check
 * `currency` yourself.
 *
 * @param a An amount: a finite number, or decimal text such as `"150.00"` (no spaces, no `,`).
 * @param b The other amount, in either form.
 * @returns `true` when both name the same decimal value.
 * @throws {WalletResponseValidationError} when `a` or `b` is not an amount (`NaN`, `Infinity`,
 *   `""`, `"1,50"`, `" 150"`); its `issues` name the argument (`a` or `b`).
 * @example
 * sameAmount(deposit.amount, status.amount); // 150 and '150.00': true
 * sameAmount(10.5, '10.50'); // true
 * sameAmount(0.1 + 0.2, '0.30'); // false: the float is 0.30000000000000004
 */
export function sameAmount(a: number | string, b: number | string): boolean {
  const left = decimalAmount(a);
  const right = decimalAmount(b);
  const issues = [
    ...(left === undefined ? [notAnAmount('a', a)] : []),
    ...(right === undefined ? [notAnAmount('b', b)] : []),
  ];
  if (issues.length > 0) {
    throw new WalletResponseValidationError({ issues, subject: 'Cannot compare amounts', body: { a, b } });
  }
  return left === right;
}

function notAnAmount(path: string, value: unknown) {
  // Cut short: the value may be anything a caller or a server handed over.
  const got = (typeof value === 'string' ? JSON.stringify(value) : String(value)).slice(0, 40);
  return { path, message: `must be a finite number or decimal text such as "150.00" (got ${got})` };
}
