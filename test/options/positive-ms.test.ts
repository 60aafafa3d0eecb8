import { describe, expect, it } from 'vitest';
import { isPositiveMs, MAX_TIMER_MS } from '../../src/limits.js';

describe('isPositiveMs, the one check of a positive duration', () => {
  it('takes a duration above 0 ms, up to its bound', () => {
    expect(isPositiveMs(1)).toBe(true);
    expect(isPositiveMs(0.5)).toBe(true);
    expect(isPositiveMs(Number.POSITIVE_INFINITY)).toBe(true);
    expect(isPositiveMs(MAX_TIMER_MS, MAX_TIMER_MS)).toBe(true);
  });

  it('refuses 0, a negative, NaN, a value over its bound and anything not a number', () => {
    for (const value of [0, -1, Number.NaN, '10', null, undefined, 10n, {}])
      expect(isPositiveMs(value), String(value)).toBe(false);
    expect(isPositiveMs(MAX_TIMER_MS + 1, MAX_TIMER_MS)).toBe(false);
    expect(isPositiveMs(Number.POSITIVE_INFINITY, MAX_TIMER_MS)).toBe(false);
  });
});
