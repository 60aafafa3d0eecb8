import type { WalletEndpoint } from '../error-codes.js';

/**
 * The symbol under which a vault carries what a `WalletClient` made with `tokens: vault` uses of it,
 * so that stays out of the vault's public surface: calls for a user by e-mail, and token reads.
 */
export const VAULT_LINK = Symbol.for('merchant-wallet.token-vault');

/**
 * Checks a user token with one call that moves no money (the caller's `listProviders`): resolves
 * when the service takes the token, rejects with the service's refusal otherwise.
 */
export type TokenCheck = (token: string) => PromiseLike<unknown>;

/**
 * The client a vault checks a token through, passed to each operation that needs a call
 * (`vault.confirm`, `vault.completeLogin`): a `WalletClient`. The vault keeps no client of its own.
 */
export interface TokenCheckClient {
  /** The user's providers: the one call that moves no money, so it checks a token safely. */
  listProviders(options: { userToken: string }): PromiseLike<unknown>;
}

/** What a user's call needs from the client making it: which endpoint it is, and how to check a token. */
export interface UserCallContext {
  /** The endpoint of the call, named by an error when nothing was sent. */
  readonly endpoint: WalletEndpoint;
  /** The calling client's token check, for a candidate token. */
  readonly check: TokenCheck;
}

/**
 * The client's side of a token vault. The vault keeps no client: every call brings the client's
 * own check, so a closed client, or another merchant's, never acts for this one.
 */
export interface VaultLink {
  /**
   * Runs `call` with the user's token. A candidate token is checked first with `context.check`:
   * promoted when it works, dropped when refused. A token the service refuses is forgotten and the
   * refusal becomes a `WalletReauthorizationRequiredError`, unless another call replaced that token
   * meanwhile: the user then holds a newer one, and the refusal is thrown as it is.
   */
  withToken<T>(email: string, context: UserCallContext, call: (token: string) => Promise<T>): Promise<T>;
  /** The user's token, as `vault.tokenFor` gives it. */
  tokenFor(email: string): Promise<string | undefined>;
}

/** Anything that carries a {@link VaultLink}: a token vault. */
export interface LinkedVault {
  /** The client's side of the vault, under its symbol. */
  readonly [VAULT_LINK]: VaultLink;
}
