import { WalletConfigError } from '../../errors.js';
import { BALANCE_PROBLEM, balanceToCents } from '../model/money.js';
import type { SandboxUserSeed } from '../model/seed.js';
import { type Balances, buildState, emailKey, type SandboxState } from '../model/state.js';

/** Whose balance `sandbox.setBalance` sets: a merchant's, a user's wallet, or a user's account at a provider. */
export interface BalanceTarget {
  /** A merchant, by app id. Give this or `email`. */
  appId?: string;
  /** A user, by e-mail. Give this or `appId`. */
  email?: string;
  /** With `email`: the user's account at this provider instead of the wallet. */
  provider?: string;
  /** A currency the sandbox accepts. */
  currency: string;
  /** The new balance in major units, e.g. `250.5`; at most two decimals. */
  amount: number;
}

function balancesOf(state: SandboxState, target: BalanceTarget): Balances {
  const { appId, email, provider } = target;
  if ((appId === undefined) === (email === undefined)) {
    throw new WalletConfigError('target', 'must name exactly one of appId and email');
  }
  if (appId !== undefined) {
    if (provider !== undefined) throw new WalletConfigError('provider', 'goes with email, not appId');
    const merchant = state.merchantsByApp.get(appId);
    if (!merchant) throw new WalletConfigError('appId', `names no sandbox merchant (${appId})`);
    return merchant.balances;
  }
  const user = typeof email === 'string' ? state.users.get(emailKey(email)) : undefined;
  if (!user) throw new WalletConfigError('email', `names no sandbox user (${String(email)})`);
  if (provider === undefined) return user.balances;
  const account = user.providers.get(provider);
  if (!account) throw new WalletConfigError('provider', `names no provider of ${user.email} (${provider})`);
  return account.balances;
}

/**
 * Sets one balance, creating it when the owner had none in that currency. Unlike a request,
 * this creates or destroys money: `totalMoney()` changes by the difference.
 */
export function setBalance(state: SandboxState, target: BalanceTarget): void {
  if (typeof target !== 'object' || target === null)
    throw new WalletConfigError('target', 'must be an object');
  const balances = balancesOf(state, target);
  if (typeof target.currency !== 'string' || !state.currencies.has(target.currency)) {
    throw new WalletConfigError('currency', `must be one of ${[...state.currencies].join(', ')}`);
  }
  const cents = balanceToCents(target.amount);
  if (cents === undefined) throw new WalletConfigError('amount', BALANCE_PROBLEM);
  balances.set(target.currency, cents);
}

/**
 * Adds a user, or replaces the one with the same e-mail (its tokens stay valid), checked
 * like a seed user. Its currencies must be ones the sandbox accepts.
 */
export function putUser(state: SandboxState, user: SandboxUserSeed): void {
  let built: SandboxState;
  try {
    built = buildState({ currencies: [...state.currencies], merchants: [], users: [user] });
  } catch (error) {
    if (!(error instanceof WalletConfigError)) throw error;
    throw new WalletConfigError(
      error.option.replace(/^seed\.users\[0\]/, 'user').replace(/^seed\./, 'user.'),
      error.message.slice(error.option.length + 2),
    );
  }
  for (const [key, record] of built.users) state.users.set(key, record);
}
