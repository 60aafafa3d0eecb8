import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { toDateCompleted } from '../../src/testing/model/transactions.js';

describe('the sandbox writes date_completed', () => {
  test('as the UTC time in YYYYMMDDHHMMSS digits', () => {
    expect(toDateCompleted(new Date('2026-11-21T14:30:05.999Z'))).toBe(20261121143005);
    expect(toDateCompleted(new Date('2000-01-01T00:00:00.000Z'))).toBe(20000101000000);
  });

  test('with the digits of the ISO time, for any time from 1970 to 9999', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('1970-01-01T00:00:00Z'),
          max: new Date('9999-12-31T23:59:59Z'),
          noInvalidDate: true,
        }),
        (date) => {
          const digits = date.toISOString().slice(0, 19).replace(/[-T:]/g, '');
          expect(toDateCompleted(date)).toBe(Number(digits));
        },
      ),
      { numRuns: 2_000 },
    );
  });
});
