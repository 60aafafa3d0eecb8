import { afterAll, beforeAll, expect, test } from 'vitest';
import { WalletError, WalletOutcomeUnknownError } from '../../src/index.js';
import { startServerTarget, type Target, TOKENS } from './harness.js';

let target: Target;
beforeAll(async () => {
  target = await startServerTarget();
});
afterAll(() => target.close());

/** A small deterministic generator, so a failing sequence can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

test('no mix of deposits, withdrawals, settlements, errors and dropped connections creates or loses money', async () => {
  const { sandbox } = target;
  const wallet = target.client('node', { maxRetries: 0 });
  const before = sandbox.totalMoney();
  const merchantBefore = sandbox.balances().merchants.app_demo_shop ?? {};
  const next = random(20_260_304);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const outcomes = { ok: 0, apiError: 0, unknown: 0 };

  for (let i = 0; i < 80; i++) {
    const amount = Math.round(next() * 300_000) / 100;
    const currency = pick(['KES', 'KES', 'UGX', 'TZS']);
    const reference_id = `mix-${i}`;
    if (next() < 0.15)
      sandbox.faults.inject({ kind: pick(['drop-after', 'drop-before', 'reset-mid-body'] as const) });
    const call = pick([
      () =>
        wallet.deposit({ reference_id, amount, currency }, { userToken: pick([TOKENS.alice, TOKENS.bob]) }),
      () =>
        wallet.deposit(
          {
            reference_id,
            amount,
            currency,
            payment_provider: pick(['mpesa', 'airtel', 'flakypay', 'declinepay']),
          },
          { userToken: TOKENS.bob },
        ),
      () =>
        wallet.withdraw({
          email: pick(['alice@example.com', 'bob@example.com']),
          amount,
          currency,
          reference_id,
        }),
      () =>
        wallet.withdraw({
          email: 'bob@example.com',
          amount,
          currency,
          reference_id,
          payment_provider: 'mpesa',
        }),
    ]);
    try {
      await call();
      outcomes.ok++;
    } catch (error) {
      if (!(error instanceof WalletError)) throw error;
      if (error instanceof WalletOutcomeUnknownError) outcomes.unknown++;
      else outcomes.apiError++;
    }
    sandbox.faults.clear();
    for (const pending of sandbox.transactions().filter((t) => t.transaction_status === 'pending')) {
      if (next() < 0.5)
        sandbox.settle(pending.transaction_id, { status: pick(['completed', 'failed'] as const) });
    }
    expect(sandbox.totalMoney(), `after step ${i}`).toEqual(before);
  }

  // The merchant's books, rebuilt from the status endpoint alone, match its balance change.
  const expectedDelta: Record<string, number> = {};
  for (const { transaction_id, type } of sandbox.transactions()) {
    const status = await wallet.getTransaction(transaction_id);
    if (status.transaction_status !== 'completed') continue;
    const cents = Math.round(Number(status.amount) * 100) * (type === 'c2b' ? 1 : -1);
    expectedDelta[status.currency] = (expectedDelta[status.currency] ?? 0) + cents;
  }
  const merchantAfter = sandbox.balances().merchants.app_demo_shop ?? {};
  for (const currency of Object.keys({ ...merchantBefore, ...merchantAfter })) {
    const delta = Math.round(((merchantAfter[currency] ?? 0) - (merchantBefore[currency] ?? 0)) * 100);
    expect(delta, currency).toBe(expectedDelta[currency] ?? 0);
  }
  // The sequence reached every kind of ending.
  expect(Object.values(outcomes).every((count) => count > 0)).toBe(true);
});
