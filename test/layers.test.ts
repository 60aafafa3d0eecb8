import { describe, expect, test } from 'vitest';
import { layerProblems, moduleOf } from '../scripts/layers/rules.js';

describe('the layer check', () => {
  test('names a file by its folder, or by its own name at the root of src', () => {
    expect(moduleOf('client/client.ts')).toBe('client');
    expect(moduleOf('stores/postgres/journal.ts')).toBe('stores');
    expect(moduleOf('errors.ts')).toBe('errors');
  });

  test('an import from a lower layer to a higher one is reported, naming both files and layers', () => {
    expect(layerProblems([{ file: 'journal/memory.ts', target: 'client/client.ts' }])).toEqual([
      'src/journal/memory.ts imports src/client/client.ts: "journal" (layer 1) runs up to "client" (layer 4)',
    ]);
    expect(layerProblems([{ file: 'errors.ts', target: 'auth/errors.ts' }])).toHaveLength(1);
  });

  test('imports down a layer and within one pass', () => {
    const imports = [
      { file: 'client/client.ts', target: 'journal/memory.ts' },
      { file: 'auth/errors.ts', target: 'errors.ts' },
      { file: 'polling/poll.ts', target: 'reconcile/pool.ts' },
      { file: 'journal/memory.ts', target: 'journal/due.ts' },
    ];
    expect(layerProblems(imports)).toEqual([]);
  });

  test('a module that no layer names is reported, so a new folder takes its place in the table', () => {
    expect(layerProblems([{ file: 'billing/invoice.ts', target: 'errors.ts' }])).toEqual([
      'src/billing/invoice.ts: module "billing" is in no layer of scripts/layers/rules.ts',
    ]);
  });
});
