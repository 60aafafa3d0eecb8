import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { describe, expect, test } from 'vitest';
import { createMemoryJournal, HEALTH_CHANNEL, type PaymentIntent, type SettledBy } from '../../src/index.js';
import { webhookHealth } from '../../src/settlement/webhook-silence.js';
import { runSilenceScenario } from './silence-scenario.js';

const NOW = Date.parse('2026-11-26T12:00:00.000Z');

function settled(settledBy: SettledBy | undefined, agoMs: number): PaymentIntent {
  const at = new Date(NOW - agoMs).toISOString();
  return {
    referenceId: `r-${Math.random()}`,
    endpoint: 'deposit',
    body: {},
    merchant: undefined,
    recordedBy: undefined,
    records: 1,
    state: 'completed',
    transactionId: 't',
    transactionStatus: 'completed',
    reason: undefined,
    createdAt: at,
    updatedAt: at,
    settledAt: at,
    settledBy,
  };
}

describe('webhookHealth', () => {
  test('three settlements after the answer in the window, none by webhook, raise the alarm', () => {
    const health = webhookHealth(
      [settled('sweeper', 1000), settled('status_read', 2000), settled('recover', 3000)],
      NOW,
    );
    expect(health).toMatchObject({ silent: true, webhookShare: 0, lastWebhookAt: undefined });
  });

  test('one webhook in the window clears it; answers and unknown paths do not count toward it', () => {
    const base = [settled('sweeper', 1000), settled('sweeper', 2000), settled('sweeper', 3000)];
    expect(webhookHealth([...base, settled('webhook', 500)], NOW)).toMatchObject({
      silent: false,
      webhookShare: 0.25,
    });
    const answers = [
      settled('answer', 1),
      settled('answer', 2),
      settled(undefined, 3),
      settled('sweeper', 4),
    ];
    expect(webhookHealth(answers, NOW)).toMatchObject({ silent: false, webhookShare: 0 });
  });

  test('settlements older than the window do not count, but the last webhook time is kept', () => {
    const old = settled('webhook', 3_600_000);
    const recent = [settled('sweeper', 1), settled('sweeper', 2), settled('sweeper', 3)];
    const health = webhookHealth([old, ...recent], NOW, { webhookWindowMs: 60_000 });
    expect(health).toMatchObject({ silent: true, lastWebhookAt: old.settledAt });
    expect(webhookHealth(recent, NOW, { silentAfter: 4 }).silent).toBe(false);
  });

  test('bad options throw WalletConfigError naming the option', () => {
    expect(() => webhookHealth([], NOW, { webhookWindowMs: 0 })).toThrow(
      /webhookWindowMs: must be a positive/,
    );
    expect(() => webhookHealth([], NOW, { silentAfter: 0.5 })).toThrow(/silentAfter: must be an integer/);
  });
});

describe('silence on the memory journal', () => {
  test('dropping every webhook raises webhooks_silent within two sweeps, every payment settles, restoring them clears it', async () => {
    const messages: unknown[] = [];
    const listener = (message: unknown) => messages.push(message);
    subscribe(HEALTH_CHANNEL, listener);
    try {
      const run = await runSilenceScenario(createMemoryJournal());
      expect(run.quiet.alarms).toEqual([]);
      expect(run.afterSweeps).toEqual(Array(3).fill({ state: 'completed', settledBy: 'sweeper' }));
      expect(run.dropped.alarms).toEqual(['webhooks_silent']);
      expect(run.dropped.webhooks.byPath.sweeper).toBe(3);
      expect(messages).toEqual([
        expect.objectContaining({ alarm: 'webhooks_silent', settledWithoutWebhook: 3 }),
      ]);
      expect(run.restoredBy).toBe('webhook');
      expect(run.restored.alarms).toEqual([]);
      expect(run.restored.webhooks.lastWebhookAt).toEqual(expect.any(String));
      expect(run.restored.webhooks.webhookShare).toBe(0.25);
    } finally {
      unsubscribe(HEALTH_CHANNEL, listener);
    }
  });
});
