import { afterAll, beforeAll, expect, test } from 'vitest';
import { createMemoryJournal } from '../../src/index.js';
import { startServerTarget, type Target } from '../integration/harness.js';

let target: Target;
beforeAll(async () => {
  target = await startServerTarget();
});
afterAll(() => target.close());

test('journalHealth() warns when one API key pays under two identities: one merchant configured with two base URLs', async () => {
  const journal = createMemoryJournal();
  const byAddress = target.client('node', { journal });
  const byName = target.client('node', {
    journal,
    baseUrl: target.baseUrl.replace('127.0.0.1', 'localhost'),
  });
  expect(byName.merchant).not.toBe(byAddress.merchant);
  expect(byName.keyFingerprint).toBe(byAddress.keyFingerprint);
  expect(byName.keyFingerprint).toMatch(/^mk1:[0-9a-f]{16}$/);
  expect((await byAddress.journalHealth()).sharedKeys).toEqual([]);
  for (const [n, wallet] of [byAddress, byName].entries()) {
    await wallet.withdraw({
      reference_id: `shared-${n}-${Date.now()}`,
      email: 'bob@example.com',
      amount: 1,
      currency: 'KES',
    });
  }
  const { sharedKeys } = await byAddress.journalHealth();
  expect(sharedKeys).toEqual([
    { keyFingerprint: byAddress.keyFingerprint, merchants: [byAddress.merchant, byName.merchant].sort() },
  ]);
  // The fingerprint is not the key, nor any part of it that could be used.
  expect(JSON.stringify(sharedKeys)).not.toContain('sk_sandbox');
});
