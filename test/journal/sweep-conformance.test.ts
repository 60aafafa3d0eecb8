import { describe, test } from 'vitest';
import { sweepConformanceChecks } from '../../src/conformance/index.js';
import { createMemoryJournal } from '../../src/index.js';

describe('the memory journal passes the settlement and sweeper checks', () => {
  for (const check of sweepConformanceChecks(() => createMemoryJournal())) test(check.name, check.run);
});
