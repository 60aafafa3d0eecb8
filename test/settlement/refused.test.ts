import { describe, expect, test } from 'vitest';
import {
  createMemoryJournal,
  isWalletApiError,
  type PaymentIntent,
  WalletConfigError,
} from '../../src/index.js';
import { useServerTarget } from '../integration/harness.js';

const target = useServerTarget();

/** More than the sandbox merchant holds: refused with a documented code, nothing moved. */
const tooLarge = () => ({
  reference_id: `wd-${crypto.randomUUID()}`,
  email: 'alice@example.com',
  amount: 999_999_999,
  currency: 'KES',
});

describe('onRefused', () => {
  test('runs once for a refused withdrawal, with its code, and marks the refusal settled after', async () => {
    const journal = createMemoryJournal();
    const refused: PaymentIntent[] = [];
    const settled: string[] = [];
    const wallet = target().client('node', {
      journal,
      onRefused: (intent: PaymentIntent) => void refused.push(intent),
      onSettled: (intent: PaymentIntent) => void settled.push(intent.referenceId),
    });
    const body = tooLarge();
    const error = await wallet.withdraw(body).catch((caught: unknown) => caught);
    expect(isWalletApiError(error)).toBe(true);
    expect(refused.map((intent) => [intent.referenceId, intent.state])).toEqual([
      [body.reference_id, 'refused'],
    ]);
    expect(refused[0]?.reason).toBe((error as { code: string }).code);
    expect(settled).toEqual([]);
    expect((await journal.get(body.reference_id))?.settledAt).toBeDefined();
    const swept = await wallet.sweepOnce();
    expect(swept.claimed).toBe(0);
    expect(refused).toHaveLength(1);
  });

  test('an onRefused that throws is run again by the sweeper after its lease, then never again', async () => {
    const journal = createMemoryJournal();
    let runs = 0;
    const wallet = target().client('node', {
      journal,
      settleLeaseMs: 1_000,
      logLevel: 'off',
      onRefused: () => {
        runs += 1;
        if (runs === 1) throw new Error('the order table is down');
      },
    });
    const body = tooLarge();
    await wallet.withdraw(body).catch(() => undefined);
    expect(runs).toBe(1);
    expect((await journal.get(body.reference_id))?.settledAt).toBeUndefined();
    expect((await wallet.sweepOnce()).settled).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const report = await wallet.sweepOnce();
    expect(report.intents).toEqual([
      { referenceId: body.reference_id, action: 'settle', outcome: 'settled' },
    ]);
    expect(runs).toBe(2);
    expect((await wallet.sweepOnce()).claimed).toBe(0);
  });

  test('a client with onRefused and no journal is refused at construction, naming onRefused', () => {
    expect(() => target().client('node', { onRefused: () => undefined })).toThrow(WalletConfigError);
    try {
      target().client('node', { onRefused: () => undefined });
    } catch (error) {
      expect((error as WalletConfigError).issues).toContainEqual({
        path: 'onRefused',
        message: 'needs the journal option',
      });
    }
  });
});
