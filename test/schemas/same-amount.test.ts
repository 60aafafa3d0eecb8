import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { sameAmount, WalletError, WalletResponseValidationError } from '../../src/index.js';
import { amountsMatch, decimalAmount } from '../../src/limits.js';

/** The status endpoint's form of an amount in hundredths: always two decimals. */
function statusForm(cents: bigint): string {
  const text = cents.toString().padStart(3, '0');
  return `${text.slice(0, -2)}.${text.slice(-2)}`;
}

describe('sameAmount', () => {
  test("a deposit's number and a status's two-decimal string of the same money are the same amount", () => {
    expect(sameAmount(150, '150.00')).toBe(true);
    expect(sameAmount('150.00', 150)).toBe(true);
    expect(sameAmount(10.5, '10.50')).toBe(true);
    expect(sameAmount(0.3, '0.30')).toBe(true);
    expect(sameAmount('007.10', '7.1')).toBe(true);
    expect(sameAmount(0, '-0.00')).toBe(true);
  });

  test('different money is never the same amount, however close', () => {
    expect(sameAmount(150, '150.01')).toBe(false);
    expect(sameAmount(150, '15.00')).toBe(false);
    expect(sameAmount(150, '1500')).toBe(false);
    expect(sameAmount('-1.00', 1)).toBe(false);
    // Number('0.1000000000000000000001') is 0.1: an exact rule must still tell them apart.
    expect(sameAmount('0.1000000000000000000001', 0.1)).toBe(false);
  });

  test('a float sum with a rounding error is not the decimal it was meant to be', () => {
    expect(sameAmount(0.1 + 0.2, '0.30')).toBe(false);
    expect(sameAmount(0.1 + 0.2, '0.30000000000000004')).toBe(true);
  });

  test('numbers that print with an exponent compare by their exact decimal value', () => {
    expect(sameAmount(1e21, '1000000000000000000000.00')).toBe(true);
    expect(sameAmount(1.5e-7, '0.00000015')).toBe(true);
    expect(sameAmount(1.5e-7, '0.0000001')).toBe(false);
  });

  test.each([
    ['a', Number.NaN, 1],
    ['a', Number.POSITIVE_INFINITY, '1'],
    ['b', 1, ''],
    ['b', 1, ' 150'],
    ['b', 1, '1,50'],
    ['b', 1, '0x10'],
    ['b', 1, '1e999999999'],
    ['a', null as unknown as number, 1],
  ])('a value that is not an amount throws WalletResponseValidationError naming %s', (path, a, b) => {
    const error = (() => {
      try {
        sameAmount(a, b);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(WalletResponseValidationError);
    expect(error).toBeInstanceOf(WalletError);
    expect((error as WalletResponseValidationError).issues.map((issue) => issue.path)).toEqual([path]);
    expect((error as Error).message).toMatch(new RegExp(`^Cannot compare amounts: ${path}: must be`));
  });

  test('both bad arguments are named in one error', () => {
    expect(() => sameAmount('x', Number.NaN)).toThrow(/a: must be .*; b: must be/);
  });

  test('property: any amount in hundredths equals its status-endpoint string, and no other', () => {
    const cents = fc.bigInt({ min: 0n, max: 100_000_000_000_000n });
    fc.assert(
      fc.property(cents, cents, (x, y) => {
        const number = Number(statusForm(x));
        expect(sameAmount(number, statusForm(x))).toBe(true);
        expect(sameAmount(number, statusForm(y))).toBe(x === y);
      }),
    );
  });

  test('property: every finite number equals the text it prints as, and its canonical form is stable', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        expect(sameAmount(n, String(n))).toBe(true);
        const canonical = decimalAmount(n);
        expect(canonical).toMatch(/^-?(0|[1-9]\d*)(\.\d*[1-9])?$/);
        expect(decimalAmount(canonical)).toBe(canonical);
        expect(Number(canonical)).toBe(n === 0 ? 0 : n);
      }),
    );
  });

  test("the SDK's own checks use the same rule but read a value that is not an amount as a mismatch", () => {
    expect(amountsMatch(150, '150.00')).toBe(true);
    expect(amountsMatch(0.1 + 0.2, '0.30')).toBe(false);
    expect(amountsMatch('', '')).toBe(false);
    expect(amountsMatch(undefined, undefined)).toBe(false);
  });
});
