import { WalletConfigError } from '../errors.js';

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
