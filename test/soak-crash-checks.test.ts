import { describe, expect, test } from 'vitest';
import { checkCrashSoak, type JournalRow } from '../scripts/soak-crash/checks.js';

const row = (
  reference_id: string,
  state: JournalRow['state'],
  transaction_id: string | null = null,
): JournalRow => ({
  reference_id,
  endpoint: 'withdraw',
  state,
  transaction_id,
});
const money = { KES: 100 };

describe('the crash soak checks', () => {
  test('a journal that agrees with the ledger passes and counts accepted ids it lacks', () => {
    const result = checkCrashSoak({
      rows: [row('crash-1', 'completed', 'tx1'), row('crash-2', 'accepted'), row('crash-3', 'refused')],
      ledger: [
        { transaction_id: 'tx1', reference_id: 'crash-1' },
        { transaction_id: 'tx2', reference_id: 'crash-2' },
      ],
      moneyBefore: money,
      moneyAfter: money,
    });
    expect(result.violations).toEqual([]);
    expect(result.figures).toMatchObject({ accepted: 2, refused: 1, appliedIdUnknownWithdrawals: 1 });
  });

  test('a reference applied twice, a refused intent the ledger applied, an open intent and lost money each fail', () => {
    const result = checkCrashSoak({
      rows: [row('crash-1', 'completed', 'tx1'), row('crash-2', 'refused'), row('crash-3', 'unknown')],
      ledger: [
        { transaction_id: 'tx1', reference_id: 'crash-1' },
        { transaction_id: 'tx1b', reference_id: 'crash-1' },
        { transaction_id: 'tx2', reference_id: 'crash-2' },
        { transaction_id: 'tx4', reference_id: 'crash-4' },
      ],
      moneyBefore: money,
      moneyAfter: { KES: 99 },
    });
    expect(result.violations).toEqual([
      '1 references applied more than once',
      '1 applied references have no journal intent',
      '1 intents are not definite',
      '2 intents disagree with the ledger',
      'money not conserved in KES: 100 -> 99',
    ]);
  });
});
