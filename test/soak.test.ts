import { describe, expect, test, vi } from 'vitest';
import { runSoak } from '../scripts/soak.js';

describe.each(['node', 'fetch'] as const)('a 500-operation soak over the %s transport', (transport) => {
  test('never pays twice, never loses a payment, conserves money and leaks no secret', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);

    const result = await runSoak({ operations: 500, seed: 7, faultRate: 0.25, transport, timeoutMs: 150 });

    expect(result.operations).toBe(500);
    expect(result.faultsArmed).toBeGreaterThan(100);
    expect(result.invariants).toMatchObject({
      duplicateReferenceViolations: 0,
      unaccountedTransactionViolations: 0,
      phantomSuccessViolations: 0,
      moneyViolations: 0,
      secretViolations: 0,
      foreignErrorViolations: 0,
    });
    expect(result.invariants.moneyAfter).toEqual(result.invariants.moneyBefore);
    expect(result.maxTransactionsPerReference).toBe(1);
    expect(result.failures.WalletOutcomeUnknownError).toBeGreaterThan(0);
    expect(result.violations).toBe(0);
  });
});
