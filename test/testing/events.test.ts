import { describe, expect, test } from 'vitest';
import type { SandboxEvent } from '../../src/testing/index.js';
import { runSandbox, startPendingDeposit, startReceiver } from './helpers.js';

describe('onEvent', () => {
  test('reports approvals with the token they retire, settlements, and every webhook attempt', async () => {
    const receiver = await startReceiver([500]);
    const events: SandboxEvent[] = [];
    const run = await runSandbox(undefined, { onEvent: (event) => events.push(event) });
    try {
      run.sandbox.updateMerchant('app_demo_shop', {
        authWebhookUrl: receiver.url,
        depositWebhookUrl: receiver.url,
      });
      const token = run.sandbox.authorize({ email: 'alice@example.com', appId: 'app_demo_shop' });
      const { id } = await startPendingDeposit(run);
      run.sandbox.settle(id, { status: 'failed', failure_reason: 'user cancelled' });
      await run.sandbox.webhooks.idle();
      // The 500 is retried a minute later on the sandbox clock, the default schedule's first wait.
      expect(run.sandbox.webhooks.deliveries()[0]).toMatchObject({ id: 'whd_1', state: 'scheduled' });
      run.sandbox.clock.advance(60_000);
      await run.sandbox.webhooks.idle();
      expect(events[0]).toMatchObject({ type: 'authorized', token, revoked: ['tok_sandbox_alice'] });
      expect(events.filter((e) => e.type === 'settled')).toEqual([
        {
          type: 'settled',
          transaction: expect.objectContaining({ transaction_id: id, transaction_status: 'failed' }),
        },
      ]);
      const attempts = (deliveryId: string) =>
        events.flatMap((e) =>
          e.type === 'webhook-attempt' && e.delivery.id === deliveryId ? [[e.number, e.attempt.status]] : [],
        );
      expect(attempts('whd_1')).toEqual([
        [1, 500],
        [2, 200],
      ]);
      expect(attempts('whd_2')).toEqual([[1, 200]]);
    } finally {
      await run.close();
      await receiver.close();
    }
  });
});
