import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type JournalHealth, type PaymentJournal, WalletClient } from '../../src/index.js';
import { createSandbox, startSandboxServer } from '../../src/testing/index.js';
import { createWebhookHandler, toNodeHandler } from '../../src/webhooks/index.js';
import { outcomesWritten } from '../helpers/written-behind.js';

/** What the silence scenario saw at each step. */
export interface SilenceRun {
  /** Health before anything happened. */
  readonly quiet: JournalHealth;
  /** After every webhook was dropped and two sweeps settled the payments. */
  readonly dropped: JournalHealth;
  /** The payments' journal states and paths after the sweeps. */
  readonly afterSweeps: readonly { state: string; settledBy: string | undefined }[];
  /** After webhooks came back and one settled a payment. */
  readonly restored: JournalHealth;
  /** The path that settled the payment after webhooks came back. */
  readonly restoredBy: string | undefined;
}

/**
 * A merchant with a journal, a verifying webhook endpoint and a sweeper, against a sandbox: every
 * webhook is dropped while three deposits settle, the sweeper settles them in two sweeps, then
 * webhooks are restored and one more deposit settles by webhook.
 */
export async function runSilenceScenario(journal: PaymentJournal): Promise<SilenceRun> {
  const sandbox = createSandbox();
  const server = await startSandboxServer({ sandbox, port: 0 });
  const wallet = new WalletClient({ apiKey: 'sk_sandbox_demo_shop', baseUrl: server.baseUrl, journal });
  const handler = createWebhookHandler({ verifyWith: wallet, onTransaction: () => {} });
  const endpoint = createServer(toNodeHandler(handler));
  await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/webhooks`;
  sandbox.updateMerchant('app_demo_shop', { depositWebhookUrl: url });
  let orders = 0;
  const settledDeposit = async () => {
    const reference = `silence-${Date.now()}-${++orders}`;
    const deposit = await wallet.deposit(
      { reference_id: reference, amount: 500, currency: 'KES', payment_provider: 'mpesa' },
      { userToken: 'tok_sandbox_bob' },
    );
    sandbox.settle(deposit.transaction_id, { status: 'completed' });
    await sandbox.webhooks.idle();
    return reference;
  };
  // The sweeper reads pending payments at once, so two sweeps stand for two intervals.
  const sweep = () => wallet.sweepOnce({ firstCheckMs: 1, sendingGraceMs: 1 });
  try {
    const quiet = await wallet.journalHealth();
    sandbox.webhooks.planNext({ mode: 'drop', count: 3, event: 'transaction' });
    const references = [await settledDeposit(), await settledDeposit(), await settledDeposit()];
    // Each outcome is written behind its answer: until it lands, the call's sending lease keeps the
    // sweeper away, so the sweeps begin once all three are in the journal.
    await outcomesWritten(journal, ...references);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await sweep();
    await sweep();
    const dropped = await wallet.journalHealth();
    const afterSweeps = await Promise.all(
      references.map(async (reference) => {
        const intent = await journal.get(reference);
        return { state: intent?.state ?? 'missing', settledBy: intent?.settledBy };
      }),
    );
    const last = await settledDeposit();
    const restored = await wallet.journalHealth();
    return { quiet, dropped, afterSweeps, restored, restoredBy: (await journal.get(last))?.settledBy };
  } finally {
    await wallet.close();
    endpoint.closeAllConnections();
    endpoint.close();
    sandbox.close();
    await server.close();
  }
}
