import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect, test } from 'vitest';
import { flatUuid } from '../../src/client/flat-uuid.js';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** The heap bytes each of `count` strings made by `make` keeps while they are all held. */
function heldBytesEach(make: () => string, count = 20_000): number {
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  const held = Array.from({ length: count }, make);
  collectGarbage();
  const bytes = process.memoryUsage().heapUsed - before;
  expect(new Set(held).size).toBe(count);
  return bytes / count;
}

test('flatUuid answers version-4 UUIDs, each different', () => {
  const ids = Array.from({ length: 1_000 }, flatUuid);
  for (const id of ids)
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  expect(new Set(ids).size).toBe(ids.length);
});

test('a UUID from flatUuid is held as one string, under 150 heap bytes (in pieces it took about 490)', () => {
  // A flat 36-character string is 56 bytes, and its slot in the array 8.
  expect(heldBytesEach(flatUuid)).toBeLessThan(150);
});
