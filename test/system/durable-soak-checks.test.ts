import { describe, expect, test } from 'vitest';
import { checkOutboxSoak } from '../../scripts/soak-outbox/checks.js';
import { checkRestateSoak, type RestateSoakInput } from '../../scripts/soak-restate/checks.js';

// The soaks pass only if their checks can fail: each broken rule, fed to the check, is reported.

const restateClean = (): RestateSoakInput => ({
  prefix: 'rs_',
  orders: new Map([
    ['o1', { status: 'completed', referenceId: 'rs_1' }],
    ['o2', { status: 'refused', referenceId: 'rs_2' }],
  ]),
  fulfilments: [
    { order_id: 'o1', reference_id: 'rs_1', status: 'completed', runs: 2, conflicting: false },
    { order_id: 'o2', reference_id: 'rs_2', status: 'refused', runs: 1, conflicting: false },
  ],
  rows: [
    {
      reference_id: 'rs_1',
      state: 'completed',
      transaction_id: 'txn_1',
      transaction_status: 'completed',
      settled: true,
    },
    {
      reference_id: 'rs_2',
      state: 'refused',
      transaction_id: null,
      transaction_status: null,
      settled: false,
    },
  ],
  ledger: [{ transaction_id: 'txn_1', reference_id: 'rs_1', transaction_status: 'completed' }],
});

describe('the Restate soak checks', () => {
  test('a run where every rule holds has no violation, and counts the re-run fulfil step', () => {
    const result = checkRestateSoak(restateClean());
    expect(result.violations).toEqual([]);
    expect(result.figures).toMatchObject({ completed: 1, refused: 1, fulfilStepReruns: 1 });
  });

  test('a reference paid twice is reported', () => {
    const input = restateClean();
    const ledger = [
      ...input.ledger,
      { transaction_id: 'txn_2', reference_id: 'rs_1', transaction_status: 'completed' },
    ];
    expect(checkRestateSoak({ ...input, ledger }).violations).toContain('1 references paid more than once');
  });

  test('an order fulfilled with another outcome, or not at all, is reported', () => {
    const input = restateClean();
    const [first] = input.fulfilments;
    const other = { ...input, fulfilments: [{ ...first!, status: 'failed' }] };
    expect(checkRestateSoak(other).figures.fulfilledNotOnce).toBe(2);
  });

  test('an order that never returned is reported', () => {
    const input = restateClean();
    const orders = new Map([...input.orders, ['o3', undefined] as const]);
    expect(checkRestateSoak({ ...input, orders }).violations).toContain('1 orders without a final outcome');
  });

  test('a journal intent disagreeing with the ledger, or final and unsettled, is reported', () => {
    const input = restateClean();
    const rows = input.rows.map((row) =>
      row.reference_id === 'rs_1'
        ? { ...row, transaction_status: 'failed', state: 'failed', settled: false }
        : row,
    );
    const result = checkRestateSoak({ ...input, rows });
    expect(result.figures).toMatchObject({ journalDisagreesWithLedger: 1, unsettled: 1 });
  });
});

const message = (key: string, status: string) => ({
  key,
  value: JSON.stringify({ referenceId: key, status }),
});
const outboxClean = () => ({
  settled: [
    { reference_id: 'a', transaction_status: 'completed' },
    { reference_id: 'b', transaction_status: 'failed' },
  ],
  outbox: [
    { reference_id: 'a', published: true },
    { reference_id: 'b', published: true },
  ],
  received: [message('a', 'completed'), message('b', 'failed'), message('a', 'completed')],
  ledger: new Map([
    ['a', 'completed'],
    ['b', 'failed'],
  ]),
});

describe('the outbox soak checks', () => {
  test('a run where every rule holds has no violation, and counts duplicates', () => {
    const result = checkOutboxSoak(outboxClean());
    expect(result.violations).toEqual([]);
    expect(result.figures.duplicates).toBe(1);
  });

  test('a settled payment whose event never reached the consumer is lost', () => {
    const input = outboxClean();
    const received = input.received.filter((one) => one.key !== 'b');
    expect(checkOutboxSoak({ ...input, received }).figures.lost).toBe(1);
  });

  test('an event of a payment that was never settled is a phantom', () => {
    const input = outboxClean();
    const received = [...input.received, message('c', 'completed')];
    expect(checkOutboxSoak({ ...input, received }).figures.phantom).toBe(1);
  });

  test("an event with another status than the journal's or the ledger's is reported, and so is an unpublished row", () => {
    const input = outboxClean();
    const received = [message('a', 'failed'), message('b', 'failed')];
    const outbox = [...input.outbox, { reference_id: 'b', published: false }];
    expect(checkOutboxSoak({ ...input, received, outbox }).figures).toMatchObject({
      disagreeing: 1,
      unpublished: 1,
    });
  });
});
