import { test } from 'vitest';
import { properties } from './properties.js';

/** A few thousand cases per property in the ordinary suite; `npm run test:fuzz` runs 100,000 each. */
const RUNS = 2_000;

for (const property of properties) {
  test(property.name, async () => {
    await property.check(RUNS);
  }, 60_000);
}
