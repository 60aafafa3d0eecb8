import { centsToAmount } from './money.js';
import type { Balances, SandboxState } from './state.js';

/** Every balance of the sandbox in major units, keyed by app id, user e-mail and provider name. */
export interface SandboxBalances {
  /** Per app id, per currency: the merchant's balance. */
  merchants: Record<string, Record<string, number>>;
  /** Per user e-mail, per currency: the user's wallet balance. */
  users: Record<string, Record<string, number>>;
  /** Per user e-mail, per provider name: the user's money held at that provider. */
  providers: Record<string, Record<string, Record<string, number>>>;
}

function plain(balances: Balances): Record<string, number> {
  return Object.fromEntries([...balances].map(([currency, cents]) => [currency, centsToAmount(cents)]));
}

/** A copy of every balance. @internal */
export function snapshotBalances(state: SandboxState): SandboxBalances {
  const result: SandboxBalances = { merchants: {}, users: {}, providers: {} };
  for (const merchant of state.merchantsByApp.values())
    result.merchants[merchant.appId] = plain(merchant.balances);
  for (const user of state.users.values()) {
    result.users[user.email] = plain(user.balances);
    result.providers[user.email] = Object.fromEntries(
      [...user.providers.values()].map((p) => [p.name, plain(p.balances)]),
    );
  }
  return result;
}

/** The sum of every balance per currency, in major units. @internal */
export function sumMoney(state: SandboxState): Record<string, number> {
  const cents = new Map<string, number>();
  const add = (balances: Balances) => {
    for (const [currency, value] of balances) cents.set(currency, (cents.get(currency) ?? 0) + value);
  };
  for (const merchant of state.merchantsByApp.values()) add(merchant.balances);
  for (const user of state.users.values()) {
    add(user.balances);
    for (const provider of user.providers.values()) add(provider.balances);
  }
  return Object.fromEntries([...cents].map(([currency, value]) => [currency, centsToAmount(value)]));
}
