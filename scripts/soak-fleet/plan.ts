/** What the fleet soak pays, and the sweeper's schedule it runs with (seconds, not minutes). */

/** Users of the default seed: alice's wallet covers her deposits; bob's go pending on his mpesa account. */
export const PAYERS = [
  { name: 'alice', token: 'tok_sandbox_alice', email: 'alice@example.com' },
  { name: 'bob', token: 'tok_sandbox_bob', email: 'bob@example.com' },
] as const;

/** A fleet's sweeper on a soak's clock: re-send after 3 s, first look at pending after 1 s, 5 s leases. */
export const FLEET_SCHEDULE = {
  sendingGraceMs: 3_000,
  firstCheckMs: 1_000,
  maxCheckIntervalMs: 4_000,
  leaseMs: 5_000,
};

/** The user token of a deposit, from the user named at the end of its reference id. */
export const tokenOf = (referenceId: string): string | undefined =>
  PAYERS.find((payer) => referenceId.endsWith(payer.name))?.token;

type Payment =
  | {
      kind: 'deposit';
      token: string;
      body: { reference_id: string; amount: number; currency: string; payment_provider?: string };
    }
  | { kind: 'withdraw'; body: { reference_id: string; email: string; amount: number; currency: string } };

/** The `n`th payment of a run: deposits and withdrawals mixed, a third of the deposits pending. */
export function paymentOf(run: string, n: number): Payment {
  const payer = PAYERS[n % 3 === 0 ? 1 : 0];
  const reference_id = `fleet-${run}-${n}-${payer.name}`;
  const amount = 1 + ((n * 7919) % 900) / 100;
  if (n % 2 === 1)
    return { kind: 'withdraw', body: { reference_id, email: payer.email, amount, currency: 'KES' } };
  // Bob's wallet holds 100 KES: his deposits above it go to his mpesa account and are pending.
  const pending = payer.name === 'bob';
  return {
    kind: 'deposit',
    token: payer.token,
    body: pending
      ? { reference_id, amount: 150 + amount, currency: 'KES', payment_provider: 'mpesa' }
      : { reference_id, amount, currency: 'KES' },
  };
}
