import { describe, expect, test } from 'vitest';
import { dedupeConformanceChecks, journalConformanceChecks } from '../../src/conformance/index.js';
import {
  createMemoryDedupeStore,
  createMemoryJournal,
  WalletConfigError,
  WalletRequestValidationError,
} from '../../src/index.js';

describe('the memory journal passes the journal conformance suite', () => {
  for (const check of journalConformanceChecks(() => createMemoryJournal())) test(check.name, check.run);
});

describe('the memory dedupe store passes the dedupe conformance suite', () => {
  for (const check of dedupeConformanceChecks(({ ttlMs }) => createMemoryDedupeStore({ ttlMs }))) {
    test(check.name, check.run);
  }
});

describe('journal arguments', () => {
  test('a bad list state is a WalletRequestValidationError naming the field', async () => {
    await expect(createMemoryJournal().list('lost' as 'sending')).rejects.toThrow(
      WalletRequestValidationError,
    );
    await expect(createMemoryJournal().list('lost' as 'sending')).rejects.toThrow(/state: must be one of/);
  });

  test('a bad limit is refused, naming it', async () => {
    await expect(createMemoryJournal().list('sending', { limit: 0 })).rejects.toThrow(
      /limit: must be a positive integer/,
    );
  });

  test('a memory dedupe store with a bad ttlMs is a WalletConfigError naming it', () => {
    expect(() => createMemoryDedupeStore({ ttlMs: -1 })).toThrow(WalletConfigError);
    expect(() => createMemoryDedupeStore({ ttlMs: Number.NaN })).toThrow(/ttlMs/);
  });
});

describe('the conformance suite catches a misbehaving adapter', () => {
  test('a journal that forgets the body fails the record check', async () => {
    const forgetful = () => {
      const journal = createMemoryJournal();
      return {
        ...journal,
        record: (intent: Parameters<typeof journal.record>[0]) => journal.record({ ...intent, body: {} }),
      };
    };
    const [first] = journalConformanceChecks(forgetful);
    await expect(first!.run()).rejects.toThrow(/body/);
  });

  test('a dedupe store that lets every claim win fails the in-progress check', async () => {
    const [first] = dedupeConformanceChecks(() => ({ claim: () => ({ outcome: 'claimed', lease: 'x' }) }));
    await expect(first!.run()).rejects.toThrow(/claim under a live lease/);
  });

  test('a store of the former boolean interface fails the checks: it has no lease', async () => {
    const [first] = dedupeConformanceChecks(() => ({ claim: () => true }));
    await expect(first!.run()).rejects.toThrow(/answers an outcome object/);
  });
});
