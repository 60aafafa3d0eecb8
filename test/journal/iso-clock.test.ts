import fc from 'fast-check';
import { expect, test } from 'vitest';
import { isoClock } from '../../src/journal/clock.js';

test('isoClock answers the ISO 8601 text of every millisecond asked for, repeated or not', () => {
  const milliseconds = fc.integer({ min: 0, max: 8_640_000_000_000_000 });
  fc.assert(
    fc.property(
      fc.array(fc.oneof(milliseconds, fc.constantFrom(0, 1, 1_764_288_000_000)), { maxLength: 30 }),
      (sequence) => {
        const isoAt = isoClock();
        for (const ms of sequence) expect(isoAt(ms)).toBe(new Date(ms).toISOString());
      },
    ),
  );
});
