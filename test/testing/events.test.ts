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
      expect(
        events.map((e) =>
          e.type === 'webhook-attempt'
            ? [e.type, e.delivery.id, e.number, e.attempt.status]
            : e.type === 'authorized'
              ? [e.type, e.token, e.revoked]
              : [e.type, e.transaction.transaction_status],
        ),
      ).toEqual([
        ['authorized', token, ['tok_sandbox_alice']],
        ['settled', 'failed'],
        ['webhook-attempt', 'whd_1', 1, 500],
        ['webhook-attempt', 'whd_1', 2, 200],
        ['webhook-attempt', 'whd_2', 1, 200],
      ]);
    } finally {
      await run.close();
      await receiver.close();
    }
  });
});
