import { expect, test } from 'vitest';
import {
  auditJournal,
  createMemoryJournal,
  reconcileJournal,
  WalletAbortError,
  WalletRequestValidationError,
} from '../../src/index.js';
import { outcomesWritten } from '../helpers/written-behind.js';
import { TOKENS, useServerTarget } from '../integration/harness.js';

const target = useServerTarget();

const reference = () => `ref-${crypto.randomUUID()}`;

test('reports each kind of disagreement, and counts what agrees and what cannot be checked', async () => {
  const journal = createMemoryJournal();
  const wallet = target().client('node', { journal });
  // Agrees: a completed withdrawal.
  const paidReference = reference();
  const paid = await wallet.withdraw({
    reference_id: paidReference,
    email: 'alice@example.com',
    amount: 7,
    currency: 'KES',
  });
  // status_differs: a pending deposit the service settled while its webhook was lost.
  const pendingBody = { reference_id: reference(), amount: 900, currency: 'KES', payment_provider: 'mpesa' };
  const pending = await wallet.deposit(pendingBody, { userToken: TOKENS.bob });
  target().sandbox.settle(pending.transaction_id, { status: 'failed', delivery: { mode: 'drop' } });
  // amount_differs: an intent whose body says another amount than the transaction it names.
  const wrong = reference();
  await journal.record({
    referenceId: wrong,
    endpoint: 'withdraw',
    body: { reference_id: wrong, amount: 8, currency: 'KES' },
  });
  await journal.update(wrong, {
    state: 'completed',
    transactionId: paid.transaction_id,
    transactionStatus: 'completed',
  });
  // unknown_to_service: a transaction id the service never issued.
  const ghost = reference();
  await journal.record({ referenceId: ghost, endpoint: 'withdraw', body: { reference_id: ghost } });
  await journal.update(ghost, {
    state: 'completed',
    transactionId: 'tx_never_issued',
    transactionStatus: 'completed',
  });
  // unresolved: a crash left it sending. unchecked: a refusal.
  const open = reference();
  await journal.record({ referenceId: open, endpoint: 'withdraw', body: { reference_id: open } });
  const refused = reference();
  await journal.record({ referenceId: refused, endpoint: 'withdraw', body: { reference_id: refused } });
  await journal.update(refused, { state: 'refused', reason: 'insufficient_balance' });

  await outcomesWritten(journal, paidReference, pendingBody.reference_id);
  const report = await auditJournal(wallet, { journal, concurrency: 3 });
  expect(report).toMatchObject({ checked: 4, agreed: 1, unchecked: 1 });
  expect(report.disagreements.map((one) => [one.kind, one.referenceId]).sort()).toEqual(
    [
      ['amount_differs', wrong],
      ['status_differs', pendingBody.reference_id],
      ['unknown_to_service', ghost],
      ['unresolved', open],
    ].sort(),
  );
  const differs = report.disagreements.find((one) => one.kind === 'status_differs');
  expect(differs?.service?.transaction_status).toBe('failed');
  expect(differs?.journal.transactionStatus).toBe('pending');
});

test('compares only the window of recording time asked for', async () => {
  const journal = createMemoryJournal();
  const wallet = target().client('node', { journal });
  const reference_id = reference();
  await wallet.withdraw({ reference_id, email: 'alice@example.com', amount: 1, currency: 'KES' });
  await outcomesWritten(journal, reference_id);
  const later = new Date(Date.now() + 60_000);
  expect(await auditJournal(wallet, { journal, since: later })).toEqual({
    checked: 0,
    agreed: 0,
    unchecked: 0,
    disagreements: [],
  });
  expect((await auditJournal(wallet, { journal, until: later })).checked).toBe(1);
});

test('bad options are typed errors naming the field; an abort stops the run', async () => {
  const journal = createMemoryJournal();
  const wallet = target().client('node', { journal });
  await expect(auditJournal(wallet, { journal: {} as never })).rejects.toThrow(/options\.journal/);
  await expect(auditJournal(wallet, { journal, concurrency: 0 })).rejects.toBeInstanceOf(
    WalletRequestValidationError,
  );
  await expect(auditJournal(wallet, { journal, since: 'soon' })).rejects.toThrow(/since/);
  await wallet.withdraw({
    reference_id: reference(),
    email: 'alice@example.com',
    amount: 1,
    currency: 'KES',
  });
  await expect(auditJournal(wallet, { journal, signal: AbortSignal.abort() })).rejects.toBeInstanceOf(
    WalletAbortError,
  );
});

test("a payment's metadata is kept in the journal, never sent, and bad metadata is refused before sending", async () => {
  const journal = createMemoryJournal();
  const wallet = target().client('node', { journal });
  const body = { reference_id: reference(), email: 'alice@example.com', amount: 2, currency: 'KES' };
  await wallet.withdraw(body, { metadata: { orderId: 'o-42' } });
  await outcomesWritten(journal, body.reference_id);
  expect((await journal.get(body.reference_id))?.metadata).toEqual({ orderId: 'o-42' });
  expect(
    JSON.stringify(
      target().sandbox.transaction((await journal.get(body.reference_id))?.transactionId as string),
    ),
  ).not.toContain('o-42');
  const before = target().sandbox.transactions().length;
  const bad = [
    { metadata: { orderId: 42 } },
    { metadata: 'o-42' },
    { metadata: Object.fromEntries(Array.from({ length: 21 }, (_, n) => [`k${n}`, 'v'])) },
    { metadata: { ['k'.repeat(41)]: 'v' } },
  ];
  for (const options of bad) {
    await expect(wallet.withdraw({ ...body, reference_id: reference() }, options as never)).rejects.toThrow(
      /options\.metadata/,
    );
  }
  await expect(wallet.getTransaction('tx_1', { metadata: { a: 'b' } } as never)).rejects.toThrow(
    /options\.metadata/,
  );
  expect(target().sandbox.transactions()).toHaveLength(before);
});

test('reconcileJournal, the deprecated former name, is auditJournal itself', () => {
  expect(reconcileJournal).toBe(auditJournal);
});
