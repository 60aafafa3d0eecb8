import { describe, test } from 'vitest';
import { tokenStoreConformanceChecks } from '../../src/conformance/index.js';
import { createMemoryTokenStore } from '../../src/index.js';

describe('the memory token store', () => {
  for (const check of tokenStoreConformanceChecks(() => createMemoryTokenStore()))
    test(check.name, check.run);
});
