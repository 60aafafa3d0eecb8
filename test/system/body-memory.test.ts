import { expect, test } from 'vitest';
import { measureBodyMemory } from '../../scripts/body-memory.js';

test('a 200 MB, endless or gzip-bomb answer grows a client process by less than 32 MB on both transports', async () => {
  const cases = await measureBodyMemory();

  expect(cases).toHaveLength(10);
  for (const measured of cases) {
    const label = `${measured.transport} ${measured.call} ${measured.body}`;
    expect(measured.growthMb, label).toBeLessThan(32);
    expect(measured.outcome, label).toMatch(
      measured.call === 'deposit'
        ? /^WalletOutcomeUnknownError: .*body is larger than maxResponseBytes \(1048576 bytes\)/
        : /^WalletResponseValidationError: .*body is larger than maxResponseBytes \(1048576 bytes\)/,
    );
  }
}, 180_000);
