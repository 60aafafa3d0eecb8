/** The sandbox's seeded merchant and users the durable-execution recipes' tests pay with. */

/** The demo merchant's key in the default sandbox seed. */
export const DURABLE_API_KEY = 'sk_sandbox_demo_shop';

/** Alice's wallet covers her deposits; bob's above 100 KES go pending on his mpesa account. */
export const PAYERS = [
  { name: 'alice', token: 'tok_sandbox_alice', email: 'alice@example.com' },
  { name: 'bob', token: 'tok_sandbox_bob', email: 'bob@example.com' },
] as const;

/** The seeded token of a payer's e-mail; throws for anyone else. */
export function tokenOfEmail(email: string): string {
  const payer = PAYERS.find((one) => one.email === email);
  if (payer === undefined) throw new Error(`no sandbox user ${email}`);
  return payer.token;
}
