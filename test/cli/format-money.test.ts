import { describe, expect, test } from 'vitest';
import { money } from '../../src/cli/format-money.js';

describe('money', () => {
  test.each([
    [8000, 'KES 8,000.00'],
    ['8000.00', 'KES 8,000.00'],
    ['150.5', 'KES 150.50'],
    ['1234567.25', 'KES 1,234,567.25'],
    ['999', 'KES 999.00'],
    ['-1500', 'KES -1,500.00'],
    [' 42.10 ', 'KES 42.10'],
  ])('%j is shown as %s', (amount, shown) => {
    expect(money(amount, 'KES')).toBe(shown);
  });

  test('digits beyond two decimals are kept, never rounded away', () => {
    expect(money('0.005', 'KES')).toBe('KES 0.005');
    expect(money('10000.125', 'USD')).toBe('USD 10,000.125');
  });

  test.each([['12abc'], ['1e21'], [''], [1e21]])('%j, not a plain decimal, is shown as it came', (amount) => {
    expect(money(amount, 'KES')).toBe(`KES ${String(amount).trim()}`);
  });
});
