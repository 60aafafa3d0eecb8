import { describe, test } from 'vitest';
import { queryConformanceChecks } from '../../src/conformance/index.js';
import { createMemoryJournal } from '../../src/index.js';

describe('the memory journal passes the query checks', () => {
  for (const check of queryConformanceChecks(() => createMemoryJournal())) test(check.name, check.run);
});
