/**
 * Provider deposits go `pending`; wait for their final status with backoff.
 * A `failed` deposit is a result to handle, not an exception.
 *
 * Run: npx tsx examples/deposit-and-wait.ts
 */
import { WalletClient } from 'merchant-wallet';
import { createSandbox, startSandboxServer } from 'merchant-wallet/testing';

// The sandbox settles pending deposits after 200 ms: `completed`, or `failed` for a declining provider.
const sandbox = createSandbox(undefined, { autoSettleMs: 200 });
const server = await startSandboxServer({ sandbox, port: 0 });
try {
  const wallet = new WalletClient({ apiKey: 'sk_sandbox_demo_shop', baseUrl: server.baseUrl });
  // Bob's wallet holds KES 100, so these deposits go through his providers.
  for (const provider of ['mpesa', 'declinepay']) {
    const deposit = await wallet.deposit(
      {
        reference_id: `order-${provider}-${Date.now()}`,
        amount: 2500,
        currency: 'KES',
        payment_provider: provider,
      },
      { userToken: 'tok_sandbox_bob' },
    );
    console.log(`${deposit.transaction_id} via ${provider}: ${deposit.transaction_status}`);
    const final = await wallet.waitForTransaction(deposit.transaction_id, {
      initialDelayMs: 100,
      timeoutMs: 10_000,
    });
    console.log(
      final.transaction_status === 'completed'
        ? `${final.transaction_id}: paid, ${final.currency} ${final.amount}`
        : `${final.transaction_id}: ${final.transaction_status} (${final.failure_reason})`,
    );
  }
} finally {
  sandbox.close();
  await server.close();
}
