import { WalletConfigError, type WalletIssue } from '../errors.js';
import { isPositiveMs, MAX_TIMER_MS, POSITIVE_MS } from '../limits.js';
import type { OptionKeys } from '../option-keys.js';
import type { WalletConfig, WalletSweeperConfig, WalletWebhookConfig } from './config.js';

/** The composition's own keys; every other key of a {@link WalletConfig} is the client's, checked by it. */
const WALLET_KEYS: OptionKeys<
  Pick<WalletConfig, 'store' | 'vault' | 'onUserAuthorized' | 'onTransaction' | 'webhooks' | 'sweeper'>
> = {
  store: true,
  vault: true,
  onUserAuthorized: true,
  onTransaction: true,
  webhooks: true,
  sweeper: true,
};
const WEBHOOK_KEYS: OptionKeys<WalletWebhookConfig> = {
  leaseMs: true,
  maxBytes: true,
  dedupeTtlMs: true,
  onError: true,
  maxVerifications: true,
  notFoundMs: true,
};
const SWEEPER_NUMBERS = [
  'intervalMs',
  'firstCheckMs',
  'maxCheckIntervalMs',
  'stuckAfterMs',
  'limit',
  'leaseMs',
  'concurrency',
] as const;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/** The composition's part of `config`, split from the client's options. */
export interface SplitConfig {
  readonly wallet: Pick<WalletConfig, keyof typeof WALLET_KEYS>;
  readonly client: Omit<WalletConfig, keyof typeof WALLET_KEYS>;
}

function checkSweeper(issues: WalletIssue[], sweeper: unknown): void {
  if (sweeper === undefined || sweeper === false) return;
  if (!isObject(sweeper)) {
    issues.push({ path: 'sweeper', message: 'must be an object of sweeper options, or false' });
    return;
  }
  if ('sendingGraceMs' in sweeper) {
    issues.push({
      path: 'sweeper.sendingGraceMs',
      message: 'is set by the restart rule, from timeoutMs and maxRetries',
    });
  }
  for (const key of SWEEPER_NUMBERS) {
    const value = (sweeper as WalletSweeperConfig)[key];
    if (value !== undefined && !(typeof value === 'number' && value > 0 && value <= MAX_TIMER_MS)) {
      issues.push({ path: `sweeper.${key}`, message: 'must be a positive number' });
    }
  }
}

/**
 * Checks the composition's own options (the client checks the rest) and splits them from the client's.
 * @throws {WalletConfigError} naming every problem found, each by its path.
 */
export function splitConfig(config: WalletConfig): SplitConfig {
  if (!isObject(config)) throw new WalletConfigError('config', 'must be an object');
  const issues: WalletIssue[] = [];
  const wallet: Record<string, unknown> = {};
  const client: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config)) {
    (Object.hasOwn(WALLET_KEYS, key) ? wallet : client)[key] = value;
  }
  const { vault, webhooks, sweeper } = config;
  for (const name of ['onUserAuthorized', 'onTransaction'] as const) {
    if (config[name] !== undefined && typeof config[name] !== 'function')
      issues.push({ path: name, message: 'must be a function' });
  }
  if (vault !== undefined && !isObject(vault))
    issues.push({ path: 'vault', message: 'must be an object: { keys, appId, login? }' });
  if (webhooks !== undefined) {
    if (!isObject(webhooks)) issues.push({ path: 'webhooks', message: 'must be an object' });
    else {
      for (const key of Object.keys(webhooks)) {
        if (!Object.hasOwn(WEBHOOK_KEYS, key))
          issues.push({ path: `webhooks.${key}`, message: 'is not a webhook option' });
      }
      const ttl = webhooks.dedupeTtlMs;
      if (ttl !== undefined && !isPositiveMs(ttl))
        issues.push({ path: 'webhooks.dedupeTtlMs', message: POSITIVE_MS });
    }
  }
  checkSweeper(issues, sweeper);
  if (issues.length > 0) throw new WalletConfigError(issues, 'Invalid wallet configuration');
  return { wallet: wallet as SplitConfig['wallet'], client: client as SplitConfig['client'] };
}
