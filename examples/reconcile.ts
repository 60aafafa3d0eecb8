/**
 * Nightly reconciliation: read the current status of every transaction the merchant still
 * holds as open (say, because a webhook never arrived), a few at a time.
 *
 * Run: npx tsx examples/reconcile.ts
 */
import { WalletClient } from 'merchant-wallet';
import { createSandbox, startSandboxServer } from 'merchant-wallet/testing';

const sandbox = createSandbox();
const server = await startSandboxServer({ sandbox, port: 0 });
try {
  const wallet = new WalletClient({ apiKey: 'sk_sandbox_demo_shop', baseUrl: server.baseUrl });
  const userToken = 'tok_sandbox_bob';
  const open: string[] = [];
  for (const provider of ['mpesa', 'mpesa', 'declinepay']) {
    const deposit = await wallet.deposit(
      {
        reference_id: `order-${open.length}-${Date.now()}`,
        amount: 500,
        currency: 'KES',
        payment_provider: provider,
      },
      { userToken },
    );
    open.push(deposit.transaction_id);
  }
  // Meanwhile the providers answered; one deposit stays pending.
  sandbox.settle(open[0] ?? '', { status: 'completed' });
  sandbox.settle(open[2] ?? '', { status: 'failed', failure_reason: 'declined by payment provider' });
  // An id from a corrupted record: reading it fails, and the others carry on.
  open.push('txn_999999');

  for await (const result of wallet.reconcile(open, { concurrency: 4 })) {
    if (result.error) console.log(`${result.transactionId}: could not read (${result.error.message})`);
    else console.log(`${result.transactionId}: ${result.status.transaction_status}`);
  }
} finally {
  sandbox.close();
  await server.close();
}
