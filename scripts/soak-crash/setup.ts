/** Shared by the soak:crash driver and its merchant process. */

/** The demo merchant's key in the default sandbox seed. */
export const SOAK_API_KEY = 'sk_sandbox_demo_shop';

/** Payments in flight at once in the merchant process. */
export const CONCURRENCY = 8;

/** Users of the default seed: alice's wallet covers most deposits, bob's often does not (refusals). */
export const USERS = [
  { name: 'alice', token: 'tok_sandbox_alice', email: 'alice@example.com' },
  { name: 'bob', token: 'tok_sandbox_bob', email: 'bob@example.com' },
] as const;

/** User token by user name, for re-sending deposits in recover(). */
export const TOKEN_BY_USER: Record<string, string> = Object.fromEntries(
  USERS.map((user) => [user.name, user.token]),
);
