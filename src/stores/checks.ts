import { WalletConfigError } from '../errors.js';
import type { WalletLogger } from '../logger.js';

/** Refuses a time to live that is not a positive whole number of milliseconds. */
export function checkTtl(option: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw new WalletConfigError(option, 'must be a positive whole number of milliseconds');
  }
  return value;
}

/** Refuses options that are not an object, naming the function. */
export function checkOptions<T>(name: string, value: T): T {
  if (typeof value !== 'object' || value === null)
    throw new WalletConfigError(name, 'options must be an object');
  return value;
}

/** Refuses a `logger` that is not an object (any of `debug`, `info`, `warn`, `error` may be given). */
export function checkLogger(value: unknown): WalletLogger | undefined {
  if (value !== undefined && (typeof value !== 'object' || value === null))
    throw new WalletConfigError('logger', 'must be an object with any of debug/info/warn/error methods');
  return value as WalletLogger | undefined;
}
