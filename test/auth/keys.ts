import { randomBytes } from 'node:crypto';
import {
  createMemoryTokenStore,
  createTokenVault,
  type TokenStore,
  type TokenVaultOptions,
} from '../../src/index.js';

/** A fresh 32-byte key in base64. */
export const newKey = (): string => randomBytes(32).toString('base64');

export const APP_ID = 'app_demo_shop';

/** A vault over `store` (a fresh memory store by default) with one key, `k1`. */
export function vaultWith(options: Partial<TokenVaultOptions> & { store?: TokenStore } = {}) {
  const store = options.store ?? createMemoryTokenStore();
  const keys = options.keys ?? { primary: 'k1', keys: { k1: newKey() } };
  return { store, keys, vault: createTokenVault({ appId: APP_ID, ...options, store, keys }) };
}
