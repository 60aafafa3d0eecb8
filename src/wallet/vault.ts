import { createTokenVault, type TokenVault } from '../auth/vault.js';
import type { WalletLogger } from '../logger.js';
import type { WalletTokensConfig } from './config.js';
import type { WalletStores } from './stores.js';

/**
 * The wallet's token vault on its stores: tokens in the token store, re-authorization notices
 * de-duplicated fleet-wide through the webhook dedupe store. `undefined` without `tokens`.
 */
export function buildVault(
  tokens: WalletTokensConfig | undefined,
  stores: WalletStores,
  logger: WalletLogger | undefined,
): TokenVault | undefined {
  if (tokens === undefined) return undefined;
  return createTokenVault({
    store: stores.tokens,
    keys: tokens.keys,
    appId: tokens.appId,
    login: tokens.login,
    onReauthorizationRequired: tokens.onReauthorizationRequired,
    dedupe: stores.dedupe,
    logger,
  });
}
