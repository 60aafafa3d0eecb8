import type { ProviderList } from '../schemas/responses.js';

/**
 * The symbol under which a vault carries what a `WalletClient` made with `tokens: vault` uses of it,
 * so that stays out of the vault's public surface: calls for a user by e-mail, and the check behind
 * `vault.confirm`.
 */
export const VAULT_LINK = Symbol.for('merchant-wallet.token-vault');

/** The client's side of a token vault. */
export interface VaultLink {
  /**
   * Runs `call` with the user's token: the current one, or the candidate while there is none. A
   * candidate that works is promoted; a token the service refuses is forgotten and the refusal
   * becomes a `WalletReauthorizationRequiredError`.
   */
  withToken<T>(email: string, call: (token: string) => Promise<T>): Promise<T>;
  /** The user's token, as `vault.tokenFor` gives it. */
  tokenFor(email: string): Promise<string | undefined>;
  /** Gives the vault the client's `listProviders`, the cheap call `vault.confirm` checks a token with. */
  bind(listProviders: (token: string) => PromiseLike<ProviderList>): void;
}

/** Anything that carries a {@link VaultLink}: a token vault. */
export interface LinkedVault {
  /** The client's side of the vault, under its symbol. */
  readonly [VAULT_LINK]: VaultLink;
}
