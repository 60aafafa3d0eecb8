import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { WalletConfigError } from '../../src/index.js';
import { parseDuration, SANDBOX_SCENARIOS } from '../../src/testing/index.js';
import {
  DEMO_KEY,
  deposit,
  type Receiver,
  type Running,
  runSandbox,
  runWithReceiver,
  startPendingDeposit,
} from './helpers.js';

let run: Running;
let receiver: Receiver;
let stop: () => Promise<void>;
beforeEach(async () => {
  ({
    run,
    receiver,
    close: stop,
  } = await runWithReceiver({ now: () => new Date('2026-11-21T14:30:00.000Z') }));
});
afterEach(() => stop());

describe('virtual clock', () => {
  test('advance settles a deposit due within the window and not one due a second after it', async () => {
    const auto = await runSandbox(undefined, { autoSettleMs: 60_000 });
    try {
      const { id } = await startPendingDeposit(auto);
      // The clock also runs at real speed, so the boundary is checked with a second to spare.
      expect(auto.sandbox.clock.advance(59_000)).toBe(0);
      expect(auto.sandbox.transaction(id)?.transaction_status).toBe('pending');
      expect(auto.sandbox.clock.advance(1_000)).toBe(1);
      expect(auto.sandbox.transaction(id)?.transaction_status).toBe('completed');
    } finally {
      await auto.close();
    }
  });

  test('sandbox time moves with advance: completion times and date_completed follow the clock', async () => {
    const { id } = await startPendingDeposit(run);
    run.sandbox.clock.advance(90_000);
    expect(run.sandbox.clock.now().toISOString()).toBe('2026-11-21T14:31:30.000Z');
    expect(run.sandbox.settle(id, { status: 'completed' }).completed_at?.toISOString()).toBe(
      '2026-11-21T14:31:30.000Z',
    );
  });

  test('events run in time order, including ones scheduled by events inside the window', async () => {
    const { id } = await startPendingDeposit(run);
    run.sandbox.settle(id, { status: 'completed', delivery: { mode: 'late', delayMs: 10_000 } });
    run.sandbox.webhooks.planNext({ mode: 'late', delayMs: 5_000 });
    const second = await startPendingDeposit(run);
    run.sandbox.settle(second.id, { status: 'completed' });
    expect(run.sandbox.clock.pending).toBe(2);
    expect(run.sandbox.clock.advance(20_000)).toBe(2);
    await run.sandbox.webhooks.idle();
    expect(receiver.received.map((r) => (r.body as { transaction_id: string }).transaction_id)).toEqual([
      second.id,
      id,
    ]);
  });

  test('advance refuses anything but a number of ms >= 0; durations read 30s, 1500ms, 5m, 2h', () => {
    expect(() => run.sandbox.clock.advance(-1)).toThrow(WalletConfigError);
    expect(() => run.sandbox.clock.advance(Number.NaN)).toThrow(/ms: must be a number/);
    expect(['30s', '1500ms', '5m', '2h', '1.5s', 250].map((d) => parseDuration(d, 'by'))).toEqual([
      30_000, 1_500, 300_000, 7_200_000, 1_500, 250,
    ]);
    expect(() => parseDuration('soon', 'by')).toThrow(/^by: must be a duration/);
  });
});

describe('scenario phone numbers', () => {
  test.each(SANDBOX_SCENARIOS.map((s) => [s.email, s] as const))(
    '%s: a deposit through the scenario number ends as the table says, when the table says',
    async (_email, scenario) => {
      const answer = await run.api({
        path: '/merchants/transactions/c2b',
        key: DEMO_KEY,
        token: scenario.token,
        body: deposit({ amount: 100, payment_provider: 'mpesa' }),
      });
      const id = (answer.body as { transaction_id: string }).transaction_id;
      expect(answer.body).toMatchObject({ transaction_status: 'pending' });
      run.sandbox.clock.advance(scenario.settleAfterMs - 1_000);
      expect(run.sandbox.transaction(id)?.transaction_status).toBe('pending');
      run.sandbox.clock.advance(1_000);
      expect(run.sandbox.transaction(id)).toMatchObject({
        transaction_status: scenario.outcome.status,
        failure_reason: scenario.outcome.failure_reason ?? null,
      });
      await run.sandbox.webhooks.idle();
      const expected = { deliver: 1, twice: 2, drop: 0 }[scenario.delivery as 'deliver' | 'twice' | 'drop'];
      expect(receiver.received).toHaveLength(expected);
    },
  );

  test('the table covers the documented endings', () => {
    const endings = SANDBOX_SCENARIOS.map((s) => [s.outcome.status, s.outcome.failure_reason ?? s.delivery]);
    expect(endings).toEqual([
      ['failed', 'user cancelled'],
      ['failed', 'insufficient funds'],
      ['failed', 'provider timeout'],
      ['completed', 'deliver'],
      ['completed', 'twice'],
      ['completed', 'drop'],
    ]);
    // The late scenario ends after the default waitForTransaction timeout of 300 s.
    expect(SANDBOX_SCENARIOS[3]?.settleAfterMs).toBeGreaterThan(300_000);
  });

  test('a user added with a scenario number gets the scenario too', async () => {
    run.sandbox.putUser({
      email: 'eve@example.com',
      balances: { KES: 0 },
      providers: [{ name: 'mtn', phone_number: '+254799000001', balances: { KES: 500 } }],
    });
    const token = run.sandbox.authorize({ email: 'eve@example.com', appId: 'app_demo_shop' });
    const answer = await run.api({
      path: '/merchants/transactions/c2b',
      key: DEMO_KEY,
      token,
      body: deposit({ amount: 100, payment_provider: 'mtn' }),
    });
    const id = (answer.body as { transaction_id: string }).transaction_id;
    run.sandbox.clock.advance(5_000);
    expect(run.sandbox.transaction(id)).toMatchObject({
      transaction_status: 'failed',
      failure_reason: 'user cancelled',
    });
  });
});

describe('changing users and redelivering', () => {
  test('a user with a pending deposit cannot be replaced until it settles', async () => {
    const { id } = await startPendingDeposit(run);
    const bob = { email: 'bob@example.com', balances: { KES: 5 } };
    expect(() => run.sandbox.putUser(bob)).toThrow(
      `user.email: has a pending deposit (${id}): settle it first`,
    );
    run.sandbox.settle(id, { status: 'completed' });
    run.sandbox.putUser(bob);
    expect(run.sandbox.balances().users['bob@example.com']).toEqual({ KES: 5 });
  });

  test('redelivering twice returns the redelivery itself, and its copy follows', async () => {
    const { id } = await startPendingDeposit(run);
    run.sandbox.settle(id, { status: 'completed' });
    await run.sandbox.webhooks.idle();
    const again = run.sandbox.webhooks.redeliver('whd_1', { mode: 'twice' });
    await run.sandbox.webhooks.idle();
    expect(again).toMatchObject({ id: 'whd_2', redeliveryOf: 'whd_1', mode: 'twice' });
    expect(run.sandbox.webhooks.deliveries().map((d) => [d.id, d.redeliveryOf, d.state])).toEqual([
      ['whd_1', undefined, 'delivered'],
      ['whd_2', 'whd_1', 'delivered'],
      ['whd_3', 'whd_2', 'delivered'],
    ]);
    expect(receiver.received).toHaveLength(3);
  });
});
