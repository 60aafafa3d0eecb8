import { WalletConfigError } from '../../errors.js';
import { isHttpUrl } from '../../limits.js';
import { BALANCE_PROBLEM, balanceToCents } from './money.js';
import type { ProviderBehavior, SandboxSeed } from './seed.js';

/** A per-currency balance in hundredths; a missing key means "no balance in that currency". */
export type Balances = Map<string, number>;

/** @internal */
export interface MerchantRecord {
  name: string;
  apiKey: string;
  appId: string;
  active: boolean;
  balances: Balances;
  authWebhookUrl: string | undefined;
  depositWebhookUrl: string | undefined;
  /** Reference ids used by this merchant's transactions, C2B and B2C alike. */
  references: Set<string>;
}

/** @internal */
export interface ProviderRecord {
  name: string;
  phoneNumber: string;
  balances: Balances;
  behavior: ProviderBehavior;
}

/** @internal */
export interface UserRecord {
  email: string;
  active: boolean;
  balances: Balances;
  providers: Map<string, ProviderRecord>;
  defaultDepositProvider: string;
  defaultWithdrawProvider: string;
}

/** @internal */
export interface TokenRecord {
  token: string;
  email: string;
  appId: string;
  revoked: boolean;
}

/** The mutable state every rule reads and writes. @internal */
export interface SandboxState {
  currencies: Set<string>;
  merchantsByKey: Map<string, MerchantRecord>;
  merchantsByApp: Map<string, MerchantRecord>;
  users: Map<string, UserRecord>;
  tokens: Map<string, TokenRecord>;
}

/** E-mail addresses are compared case-insensitively. */
export function emailKey(email: string): string {
  return email.trim().toLowerCase();
}

function balancesFrom(
  input: Record<string, number> | undefined,
  field: string,
  currencies: Set<string>,
): Balances {
  const balances: Balances = new Map();
  for (const [currency, amount] of Object.entries(input ?? {})) {
    const cents = balanceToCents(amount);
    if (cents === undefined) {
      throw new WalletConfigError(`${field}.${currency}`, BALANCE_PROBLEM);
    }
    currencies.add(currency);
    balances.set(currency, cents);
  }
  return balances;
}

function requireString(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new WalletConfigError(field, 'must be a non-empty string');
  }
  return value;
}

function optionalUrl(value: unknown, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (!isHttpUrl(value)) {
    throw new WalletConfigError(field, 'must be an absolute http(s) URL');
  }
  return value;
}

/** Builds the state from a seed, rejecting any inconsistency with a {@link WalletConfigError} naming the field. */
export function buildState(seed: SandboxSeed): SandboxState {
  if (typeof seed !== 'object' || seed === null) throw new WalletConfigError('seed', 'must be an object');
  if (!Array.isArray(seed.merchants)) throw new WalletConfigError('seed.merchants', 'must be an array');
  if (!Array.isArray(seed.users)) throw new WalletConfigError('seed.users', 'must be an array');
  const seenCurrencies = new Set<string>();
  const state: SandboxState = {
    currencies: seenCurrencies,
    merchantsByKey: new Map(),
    merchantsByApp: new Map(),
    users: new Map(),
    tokens: new Map(),
  };
  seed.merchants.forEach((m, i) => {
    const field = `seed.merchants[${i}]`;
    const merchant: MerchantRecord = {
      apiKey: requireString(m.apiKey, `${field}.apiKey`),
      appId: requireString(m.appId, `${field}.appId`),
      name: m.name ?? m.appId,
      active: m.active ?? true,
      balances: balancesFrom(m.balances, `${field}.balances`, seenCurrencies),
      authWebhookUrl: optionalUrl(m.authWebhookUrl, `${field}.authWebhookUrl`),
      depositWebhookUrl: optionalUrl(m.depositWebhookUrl, `${field}.depositWebhookUrl`),
      references: new Set(),
    };
    if (state.merchantsByKey.has(merchant.apiKey))
      throw new WalletConfigError(`${field}.apiKey`, 'is used twice');
    if (state.merchantsByApp.has(merchant.appId))
      throw new WalletConfigError(`${field}.appId`, 'is used twice');
    state.merchantsByKey.set(merchant.apiKey, merchant);
    state.merchantsByApp.set(merchant.appId, merchant);
  });
  seed.users.forEach((u, i) => {
    const field = `seed.users[${i}]`;
    const email = requireString(u.email, `${field}.email`);
    if (state.users.has(emailKey(email))) throw new WalletConfigError(`${field}.email`, 'is used twice');
    const providers = new Map<string, ProviderRecord>();
    (u.providers ?? []).forEach((p, j) => {
      const pField = `${field}.providers[${j}]`;
      const name = requireString(p.name, `${pField}.name`);
      if (providers.has(name)) throw new WalletConfigError(`${pField}.name`, 'is used twice for this user');
      providers.set(name, {
        name,
        phoneNumber: requireString(p.phone_number, `${pField}.phone_number`),
        balances: balancesFrom(p.balances, `${pField}.balances`, seenCurrencies),
        behavior: p.behavior ?? 'ok',
      });
    });
    const first = providers.keys().next().value ?? '';
    state.users.set(emailKey(email), {
      email,
      active: u.active ?? true,
      balances: balancesFrom(u.balances, `${field}.balances`, seenCurrencies),
      providers,
      defaultDepositProvider: u.default_deposit_provider ?? first,
      defaultWithdrawProvider: u.default_withdraw_provider ?? first,
    });
  });
  (seed.tokens ?? []).forEach((t, i) => {
    const field = `seed.tokens[${i}]`;
    const token = requireString(t.token, `${field}.token`);
    if (!state.users.has(emailKey(requireString(t.email, `${field}.email`)))) {
      throw new WalletConfigError(`${field}.email`, 'names no user of the seed');
    }
    if (!state.merchantsByApp.has(requireString(t.appId, `${field}.appId`))) {
      throw new WalletConfigError(`${field}.appId`, 'names no merchant of the seed');
    }
    if (state.tokens.has(token)) throw new WalletConfigError(`${field}.token`, 'is used twice');
    state.tokens.set(token, { token, email: t.email, appId: t.appId, revoked: false });
  });
  if (seed.currencies !== undefined) {
    if (!Array.isArray(seed.currencies)) throw new WalletConfigError('seed.currencies', 'must be an array');
    for (const [i, c] of seed.currencies.entries()) {
      if (typeof c !== 'string' || !/^[A-Za-z0-9]{1,16}$/.test(c)) {
        throw new WalletConfigError(`seed.currencies[${i}]`, 'must be a currency code of letters or digits');
      }
    }
    for (const used of seenCurrencies) {
      if (!seed.currencies.includes(used)) {
        throw new WalletConfigError('seed.currencies', `must include ${used}, which a balance uses`);
      }
    }
    state.currencies = new Set(seed.currencies);
  }
  return state;
}

/**
 * Moves `cents` between two balances that both hold `currency`. Callers check
 * every condition first, so a request either moves all its money or none.
 */
export function transfer(from: Balances, to: Balances, currency: string, cents: number): void {
  const available = from.get(currency);
  const target = to.get(currency) ?? 0;
  if (available === undefined || available < cents) {
    throw new Error(`sandbox invariant broken: transfer of ${cents} ${currency} from a short balance`);
  }
  from.set(currency, available - cents);
  to.set(currency, target + cents);
}
