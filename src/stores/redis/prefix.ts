import { WalletConfigError } from '../../errors.js';
import type { RedisCommander } from './commander.js';

/**
 * The hash tag Redis Cluster hashes `key` by: the text between the first `{` and the first `}`
 * after it, when not empty; `undefined` when the whole key is hashed.
 */
export function hashTagOf(key: string): string | undefined {
  const open = key.indexOf('{');
  if (open < 0) return undefined;
  const close = key.indexOf('}', open + 1);
  return close <= open + 1 ? undefined : key.slice(open + 1, close);
}

/**
 * Refuses a key prefix that is not a string. When a store's scripts touch several keys at once
 * (`multiKey`) and the client is a cluster client, also refuses a prefix without a complete hash tag:
 * the cluster would refuse every such script with CROSSSLOT, so say it now, naming the option.
 */
export function checkPrefix(
  option: string,
  value: unknown,
  commander: RedisCommander,
  multiKey: boolean,
): string {
  if (typeof value !== 'string' || value.length > 200) {
    throw new WalletConfigError(option, 'must be a string of at most 200 characters');
  }
  if (multiKey && commander.cluster && hashTagOf(value) === undefined) {
    throw new WalletConfigError(
      option,
      `"${value}" has no hash tag; on Redis Cluster every key one script touches must share a slot, so wrap part of the prefix in braces, e.g. "{${value.replace(/[:{}]+$/, '') || 'wallet'}}:"`,
    );
  }
  return value;
}
