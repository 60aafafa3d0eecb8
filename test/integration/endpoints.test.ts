import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseDateCompleted } from '../../src/index.js';
import { startServerTarget, type Target, TRANSPORTS } from './harness.js';
import { SCENARIOS } from './scenarios.js';

describe.each(TRANSPORTS)(
  'every endpoint through WalletClient against the sandbox server, %s transport',
  (transport) => {
    let target: Target;
    beforeAll(async () => {
      target = await startServerTarget();
    });
    afterAll(() => target.close());

    test.each(SCENARIOS)('$name', async (scenario) => {
      expect(await scenario.run(target, transport)).toEqual(scenario.expected);
    });

    test('the sandbox saw every money-moving request once', () => {
      expect(target.sandbox.transactions().map((t) => `${t.type} ${t.transaction_status}`)).toEqual([
        'c2b completed',
        'c2b completed',
        'c2b failed',
        'b2c completed',
        'b2c completed',
        'b2c completed',
      ]);
    });
  },
);

test('date_completed from a withdrawal is the sandbox clock in UTC', async () => {
  const target = await startServerTarget();
  try {
    const result = await target
      .client('node')
      .withdraw({ email: 'alice@example.com', amount: 1, currency: 'KES', reference_id: 'd-1' });
    expect(parseDateCompleted(result.date_completed ?? 0).toISOString()).toBe('2026-03-04T05:06:07.000Z');
  } finally {
    await target.close();
  }
});
