import { createTokenVault, type TokenVault } from '../auth/vault.js';
import type { WalletLogger } from '../logger.js';
import type { WalletVaultConfig } from './config.js';
import type { WalletStores } from './stores.js';

/**
 * The wallet's token vault on its stores: tokens in the token store, re-authorization notices
 * de-duplicated fleet-wide through the webhook dedupe store. `undefined` without the `vault` option.
 */
export function buildVault(
  settings: WalletVaultConfig | undefined,
  stores: WalletStores,
  logger: WalletLogger | undefined,
): TokenVault | undefined {
  if (settings === undefined) return undefined;
  return createTokenVault({
    store: stores.tokens,
    keys: settings.keys,
    appId: settings.appId,
    login: settings.login,
    onReauthorizationRequired: settings.onReauthorizationRequired,
    dedupe: stores.dedupe,
    logger,
  });
}
