import { describe, expect, test } from 'vitest';
import {
  createMemoryJournal,
  type PaymentIntent,
  type PaymentJournal,
  WalletConfigError,
  WalletRequestValidationError,
} from '../../src/index.js';
import { outcomesWritten } from '../helpers/written-behind.js';
import { TOKENS, useServerTarget } from '../integration/harness.js';

const target = useServerTarget();

type Settled = [referenceId: string, status: string];

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function settledClient(journal: PaymentJournal, settled: Settled[], extra: object = {}) {
  return target().client('node', {
    journal,
    onSettled: (intent: PaymentIntent, status: string) => void settled.push([intent.referenceId, status]),
    ...extra,
  });
}

const withdrawal = () => ({
  reference_id: `wd-${crypto.randomUUID()}`,
  email: 'alice@example.com',
  amount: 5,
  currency: 'KES',
});
/** Bob's wallet cannot cover it, so it waits on his mpesa account: pending. */
const pendingDeposit = () => ({
  reference_id: `dep-${crypto.randomUUID()}`,
  amount: 900,
  currency: 'KES',
  payment_provider: 'mpesa',
});

describe('onSettled', () => {
  test("runs once when the call's own answer is final, and marks the intent settled after", async () => {
    const journal = createMemoryJournal();
    const settled: Settled[] = [];
    const wallet = settledClient(journal, settled);
    const body = withdrawal();
    await wallet.withdraw(body);
    expect(settled).toEqual([[body.reference_id, 'completed']]);
    expect((await journal.get(body.reference_id))?.settledAt).toBeDefined();
    await wallet.getTransaction((await journal.get(body.reference_id))?.transactionId as string);
    expect(settled).toHaveLength(1);
  });

  test('on a journal without transactions, onSettled gets the intent in its final state and no transaction', async () => {
    const journal = createMemoryJournal();
    const calls: unknown[][] = [];
    const wallet = target().client('node', {
      journal,
      onSettled: (...args: unknown[]) => {
        calls.push(args);
      },
    });
    const body = withdrawal();
    await wallet.withdraw(body);
    expect(calls).toEqual([
      [
        expect.objectContaining({ referenceId: body.reference_id, state: 'completed' }),
        'completed',
        { transaction: undefined },
      ],
    ]);
  });

  test('a pending deposit settles when a status read finds it final, once, across two instances', async () => {
    const journal = createMemoryJournal();
    const settled: Settled[] = [];
    const [one, two] = [settledClient(journal, settled), settledClient(journal, settled)];
    const body = pendingDeposit();
    const deposit = await one.deposit(body, { userToken: TOKENS.bob });
    expect(deposit.transaction_status).toBe('pending');
    expect(settled).toEqual([]);
    target().sandbox.settle(deposit.transaction_id, { status: 'failed', delivery: { mode: 'drop' } });
    await Promise.all([
      one.getTransaction(deposit.transaction_id),
      two.getTransaction(deposit.transaction_id),
      two.waitForTransaction(deposit.transaction_id, { timeoutMs: 5_000, initialDelayMs: 10 }),
    ]);
    expect(settled).toEqual([[body.reference_id, 'failed']]);
  });

  test('a callback that throws is not marked settled, and the sweeper runs it again after its lease', async () => {
    const journal = createMemoryJournal();
    let calls = 0;
    const wallet = target().client('node', {
      journal,
      settleLeaseMs: 1_000,
      onSettled: () => {
        calls += 1;
        if (calls === 1) throw new Error('fulfilment service down');
      },
      logger: { error: () => {} },
    });
    const body = withdrawal();
    await wallet.withdraw(body);
    expect(calls).toBe(1);
    expect((await journal.get(body.reference_id))?.settledAt).toBeUndefined();
    expect((await wallet.sweepOnce()).claimed).toBe(0); // the lease still holds it
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const report = await wallet.sweepOnce();
    expect(report).toMatchObject({ claimed: 1, settled: 1 });
    expect(report.intents).toEqual([
      { referenceId: body.reference_id, action: 'settle', outcome: 'settled' },
    ]);
    expect(calls).toBe(2);
    expect((await journal.get(body.reference_id))?.settledAt).toBeDefined();
  });

  test('onSettled needs a journal, and must be a function', () => {
    expect(() => target().client('node', { onSettled: () => {} })).toThrow(/onSettled.*journal/);
    const { claimSettlement: _claim, ...withoutSettlement } = createMemoryJournal();
    expect(() => target().client('node', { journal: withoutSettlement, onSettled: () => {} })).toThrow(
      /onSettled.*claimSettlement/,
    );
    expect(() =>
      target().client('node', { journal: createMemoryJournal(), onSettled: 'yes' as never }),
    ).toThrow(WalletConfigError);
    expect(() => target().client('node', { journal: createMemoryJournal(), settleLeaseMs: 5 })).toThrow(
      /settleLeaseMs/,
    );
  });
});

describe('the sweeper', () => {
  test('reads a pending deposit whose callback never comes, on its backoff schedule, and settles it', async () => {
    const journal = createMemoryJournal();
    const settled: Settled[] = [];
    const wallet = settledClient(journal, settled);
    const schedule = { firstCheckMs: 50 };
    const body = pendingDeposit();
    const deposit = await wallet.deposit(body, { userToken: TOKENS.bob });
    expect((await wallet.sweepOnce(schedule)).claimed).toBe(0); // not due before firstCheckMs
    await pause(60);
    const first = await wallet.sweepOnce(schedule);
    expect(first.intents).toEqual([{ referenceId: body.reference_id, action: 'read', outcome: 'pending' }]);
    const after = await journal.get(body.reference_id);
    expect(after?.checks).toBe(1);
    // The second check is twice the first delay after the first one.
    expect(Date.parse(after?.nextCheckAt as string) - Date.now()).toBeGreaterThan(50);
    expect((await wallet.sweepOnce(schedule)).claimed).toBe(0);
    target().sandbox.settle(deposit.transaction_id, { status: 'completed', delivery: { mode: 'drop' } });
    await pause(110);
    const second = await wallet.sweepOnce(schedule);
    expect(second).toMatchObject({ claimed: 1, settled: 1 });
    expect(settled).toEqual([[body.reference_id, 'completed']]);
    expect((await wallet.sweepOnce({ firstCheckMs: 1 })).claimed).toBe(0);
  });

  test('a pending deposit older than stuckAfterMs is not polled', async () => {
    const journal = createMemoryJournal();
    const wallet = settledClient(journal, []);
    await wallet.deposit(pendingDeposit(), { userToken: TOKENS.bob });
    await pause(5);
    expect((await wallet.sweepOnce({ firstCheckMs: 1, stuckAfterMs: 2 })).claimed).toBe(0);
  });

  test('re-sends a sending intent past its grace period and an unknown one, with the one-truth rules', async () => {
    const journal = createMemoryJournal();
    const settled: Settled[] = [];
    const wallet = settledClient(journal, settled);
    const crashed = withdrawal();
    const unknown = withdrawal();
    await journal.record({
      referenceId: crashed.reference_id,
      endpoint: 'withdraw',
      body: crashed,
      merchant: wallet.merchant,
    });
    await journal.record({ referenceId: unknown.reference_id, endpoint: 'withdraw', body: unknown });
    await journal.update(unknown.reference_id, { state: 'unknown', reason: 'timed out' });
    expect((await wallet.sweepOnce()).intents.map((one) => one.referenceId)).toEqual([unknown.reference_id]);
    const report = await wallet.sweepOnce({ sendingGraceMs: 1 });
    expect(report.intents).toEqual([
      { referenceId: crashed.reference_id, action: 'resend', outcome: 'applied' },
    ]);
    expect(settled.map(([reference]) => reference).sort()).toEqual(
      [crashed.reference_id, unknown.reference_id].sort(),
    );
    expect(
      target()
        .sandbox.transactions()
        .filter((tx) => tx.reference_id === crashed.reference_id),
    ).toHaveLength(1);
  });

  test("never touches another merchant's intents", async () => {
    const journal = createMemoryJournal();
    const wallet = settledClient(journal, []);
    const body = withdrawal();
    await journal.record({
      referenceId: body.reference_id,
      endpoint: 'withdraw',
      body,
      merchant: 'mw1:someone-else',
    });
    expect((await wallet.sweepOnce({ sendingGraceMs: 1 })).claimed).toBe(0);
  });

  test('two sweepers never claim the same intent', async () => {
    const journal = createMemoryJournal();
    const [one, two] = [settledClient(journal, []), settledClient(journal, [])];
    for (let n = 0; n < 6; n++) {
      const body = withdrawal();
      await journal.record({ referenceId: body.reference_id, endpoint: 'withdraw', body });
      await journal.update(body.reference_id, { state: 'unknown' });
    }
    const [a, b] = await Promise.all([one.sweepOnce({ limit: 4 }), two.sweepOnce({ limit: 4 })]);
    const seen = [...a.intents, ...b.intents].map((intent) => intent.referenceId);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toHaveLength(6);
  });

  test('bad options are typed errors naming the field; no journal is a WalletConfigError', async () => {
    const wallet = settledClient(createMemoryJournal(), []);
    await expect(wallet.sweepOnce({ limit: 0 })).rejects.toThrow(/options\.limit/);
    await expect(wallet.sweepOnce({ leaseMs: 10 })).rejects.toThrow(/options\.leaseMs/);
    await expect(wallet.sweepOnce({ firstCheckMs: -1 })).rejects.toBeInstanceOf(WalletRequestValidationError);
    await expect(target().client('node').sweepOnce()).rejects.toBeInstanceOf(WalletConfigError);
    await expect(wallet.supervise({} as never)).rejects.toThrow(/options\.signal/);
  });

  test('supervise sweeps until aborted', async () => {
    const journal = createMemoryJournal();
    const wallet = settledClient(journal, []);
    const body = withdrawal();
    await journal.record({ referenceId: body.reference_id, endpoint: 'withdraw', body });
    await journal.update(body.reference_id, { state: 'unknown' });
    const stop = new AbortController();
    const reports: number[] = [];
    const running = wallet.supervise({
      signal: stop.signal,
      intervalMs: 10,
      onSweep: (report) => {
        reports.push(report.claimed);
        if (reports.length >= 3) stop.abort();
      },
    });
    await running;
    expect(reports[0]).toBe(1);
    expect((await journal.get(body.reference_id))?.state).toBe('completed');
  });
});

describe('journalHealth', () => {
  test('counts by state, pending and unsettled payments, and reports stuck ones', async () => {
    const journal = createMemoryJournal();
    const wallet = target().client('node', { journal });
    const paid = withdrawal();
    await wallet.withdraw(paid);
    const body = pendingDeposit();
    await wallet.deposit(body, { userToken: TOKENS.bob });
    await outcomesWritten(journal, paid.reference_id, body.reference_id);
    const health = await wallet.journalHealth();
    expect(health.counts).toEqual({
      sending: 0,
      unknown: 0,
      accepted: 1,
      completed: 1,
      failed: 0,
      refused: 0,
      closed: 0,
    });
    expect(health).toMatchObject({ pending: 1, unsettled: 1 });
    expect(health.oldestPendingMs).toBeGreaterThanOrEqual(0);
    expect(health.stuck).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const stuck = await wallet.journalHealth({ stuckAfterMs: 1 });
    expect(stuck.stuck.map((one) => [one.why, one.intent.referenceId])).toEqual([
      ['pending_too_long', body.reference_id],
    ]);
    await expect(target().client('node').journalHealth()).rejects.toBeInstanceOf(WalletConfigError);
  });

  test('an accepted payment whose transaction id was never told is stuck at once, and never swept', async () => {
    const journal = createMemoryJournal();
    const wallet = target().client('node', { journal });
    const body = withdrawal();
    await journal.record({ referenceId: body.reference_id, endpoint: 'withdraw', body });
    await journal.update(body.reference_id, { state: 'accepted', reason: 'reference_already_used' });
    const health = await wallet.journalHealth();
    expect(health.stuck.map((one) => [one.why, one.intent.referenceId])).toEqual([
      ['no_transaction_id', body.reference_id],
    ]);
    await pause(5);
    expect((await wallet.sweepOnce({ firstCheckMs: 1 })).claimed).toBe(0);
  });
});
