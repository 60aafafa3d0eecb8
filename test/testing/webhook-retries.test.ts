import { expect, test } from 'vitest';
import { createSandbox, defaultSandboxSeed } from '../../src/testing/index.js';
import { DEFAULT_WEBHOOK_SCHEDULE_MS } from '../../src/testing/serve/webhook-retry.js';
import { type Running, runSandbox, startPendingDeposit, startReceiver } from './helpers.js';

const MINUTE = 60_000;

/** A pending deposit settled with its result webhook sent to `url`; resolves once its first attempt is over. */
async function settledTo(run: Running, url: string) {
  run.sandbox.updateMerchant('app_demo_shop', { depositWebhookUrl: url });
  const { id } = await startPendingDeposit(run);
  run.sandbox.settle(id, { status: 'completed' });
  await run.sandbox.webhooks.idle();
  return () => run.sandbox.webhooks.deliveries().find((d) => d.event.event === 'transaction');
}

test('by default a refused webhook waits on the sandbox clock: moving it a minute brings the second attempt', async () => {
  const receiver = await startReceiver([503, 503]);
  const run = await runSandbox();
  try {
    const delivery = await settledTo(run, receiver.url);
    const first = delivery();
    expect(first).toMatchObject({ state: 'scheduled', attempts: [{ status: 503 }] });
    // The wait starts when the attempt has failed, a few real ms after it started.
    const wait = (first?.nextAttemptAt?.getTime() ?? 0) - (first?.attempts[0]?.at.getTime() ?? 0);
    expect(wait).toBeGreaterThanOrEqual(MINUTE);
    expect(wait).toBeLessThan(MINUTE + 5_000);
    run.sandbox.clock.advance(MINUTE - 1_000);
    await run.sandbox.webhooks.idle();
    expect(delivery()?.attempts).toHaveLength(1);
    run.sandbox.clock.advance(1_000);
    await run.sandbox.webhooks.idle();
    expect(delivery()).toMatchObject({ state: 'scheduled', attempts: [{ status: 503 }, { status: 503 }] });
    // The next wait is five minutes; an hour brings it, and the receiver is back.
    run.sandbox.clock.advance(60 * MINUTE);
    await run.sandbox.webhooks.idle();
    expect(delivery()).toMatchObject({ state: 'delivered', nextAttemptAt: undefined });
    expect(delivery()?.attempts.map((a) => a.status)).toEqual([503, 503, 200]);
  } finally {
    await run.close();
    await receiver.close();
  }
});

test('the default schedule makes eight attempts over hours, then the delivery fails', async () => {
  const receiver = await startReceiver(Array(8).fill(500));
  const run = await runSandbox();
  try {
    const delivery = await settledTo(run, receiver.url);
    const gaps: number[] = [];
    for (const wait of DEFAULT_WEBHOOK_SCHEDULE_MS) {
      run.sandbox.clock.advance(wait);
      await run.sandbox.webhooks.idle();
      const attempts = delivery()?.attempts ?? [];
      gaps.push((attempts.at(-1)?.at.getTime() ?? 0) - (attempts.at(-2)?.at.getTime() ?? 0));
    }
    // Each gap is the schedule's wait plus the real ms the attempt before it took.
    gaps.forEach((gap, index) => {
      const wait = DEFAULT_WEBHOOK_SCHEDULE_MS[index] ?? 0;
      expect(gap).toBeGreaterThanOrEqual(wait);
      expect(gap).toBeLessThan(wait + 5_000);
    });
    expect(delivery()).toMatchObject({ state: 'failed', nextAttemptAt: undefined });
    expect(delivery()?.attempts).toHaveLength(8);
  } finally {
    await run.close();
    await receiver.close();
  }
});

test('a schedule of milliseconds retries at once, and idle() waits for those retries', async () => {
  const receiver = await startReceiver([500, 500, 500]);
  const run = await runSandbox(undefined, { webhooks: { schedule: [5, 10] } });
  try {
    const delivery = await settledTo(run, receiver.url);
    expect(delivery()).toMatchObject({ state: 'failed' });
    expect(delivery()?.attempts.map((a) => a.status)).toEqual([500, 500, 500]);
  } finally {
    await run.close();
    await receiver.close();
  }
});

test('the last wait of a schedule repeats when there are more attempts than waits', () => {
  const sandbox = createSandbox(defaultSandboxSeed(), {
    webhooks: { attempts: 4, schedule: [1_000, 5_000] },
  });
  expect(sandbox.webhooks.retries()).toEqual({
    attempts: 4,
    scheduleMs: [1_000, 5_000, 5_000],
    timeoutMs: 2_000,
  });
  expect(sandbox.webhooks.setRetries({ attempts: 2, backoffMs: 50 })).toEqual({
    attempts: 2,
    scheduleMs: [50],
    timeoutMs: 2_000,
  });
  expect(createSandbox(undefined, { webhooks: { backoffMs: 50 } }).webhooks.retries().scheduleMs).toEqual([
    50, 100,
  ]);
});

test('a bad retry policy is refused naming the field, and changes nothing', () => {
  const sandbox = createSandbox();
  const before = sandbox.webhooks.retries();
  expect(() => sandbox.webhooks.setRetries({ schedule: [1_000, -1] })).toThrow(
    expect.objectContaining({ name: 'WalletConfigError', option: 'retries.schedule.1' }),
  );
  expect(() => sandbox.webhooks.setRetries({ schedule: [] })).toThrow(
    'retries.schedule: must be a list of 1 to 19 waits in ms',
  );
  expect(() => createSandbox(undefined, { webhooks: { schedule: [1], backoffMs: 1 } })).toThrow(
    'options.webhooks.schedule: cannot be given with backoffMs',
  );
  expect(() => sandbox.webhooks.setRetries({ schedule: [8 * 24 * 3_600_000] })).toThrow(
    /retries\.schedule\.0/,
  );
  expect(sandbox.webhooks.retries()).toEqual(before);
});

test('closing the sandbox ends a delivery waiting for its retry as failed', async () => {
  const receiver = await startReceiver([500]);
  const run = await runSandbox();
  try {
    run.sandbox.updateMerchant('app_demo_shop', { depositWebhookUrl: receiver.url });
    const { id } = await startPendingDeposit(run);
    run.sandbox.settle(id, { status: 'completed' });
    const finished = run.sandbox.webhooks.waitFor((d) => d.event.event === 'transaction');
    await run.sandbox.webhooks.idle();
    run.sandbox.close();
    expect(await finished).toMatchObject({ state: 'failed', attempts: [{ status: 500 }] });
    expect(run.sandbox.clock.pending).toBe(0);
  } finally {
    await run.close();
    await receiver.close();
  }
});
