/**
 * The composed wallet: one configuration builds the client, journal, webhook dedupe store, token
 * vault, settlement, sweeper and webhook endpoint on one store, and `start()`/`close()` run their
 * life in order. Its own entry, so the client's bundle and the main entry do not carry the store
 * adapters it builds on (no database driver is loaded by it either: the adapters take yours).
 *
 * @packageDocumentation
 * @module merchant-wallet/wallet
 */

export type {
  WalletConfig,
  WalletStoreConfig,
  WalletSweeperConfig,
  WalletVaultConfig,
  WalletWebhookConfig,
} from './config.js';
export type { Wallet } from './create-wallet.js';
export { createWallet } from './create-wallet.js';
export type { WalletStartReport, WalletState } from './lifecycle.js';
export { restartGraceMs } from './restart-rule.js';
