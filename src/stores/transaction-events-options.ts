import { WalletConfigError, type WalletIssue } from '../errors.js';
import type { WalletLogger } from '../logger.js';
import { type OptionKeys, unknownOptionKeys } from '../option-keys.js';
import type { TransactionEventsErrorHandler } from './shared-transaction-events.js';

/** The options every shared transaction-event source takes, whatever its store. */
export interface CommonTransactionEventsOptions {
  channel?: string;
  trustPeerStatus?: boolean;
  onError?: TransactionEventsErrorHandler;
  logger?: WalletLogger;
}

/** The checked common options. */
export interface CommonTransactionEventsSettings {
  readonly channel: string;
  readonly trustPeerStatus: boolean;
  readonly onError: TransactionEventsErrorHandler | undefined;
  readonly logger: WalletLogger | undefined;
}

/**
 * Checks the options of `name` against `registry`, collecting every problem: unknown keys, the common
 * options, then the store's own through `checkOwn`; throws one `WalletConfigError` naming them all.
 */
export function checkTransactionEventsOptions<Options extends CommonTransactionEventsOptions, Own>(
  name: string,
  options: Options,
  registry: OptionKeys<Options>,
  settings: { defaultChannel: string; checkChannel(value: string): string | undefined },
  checkOwn: (issues: WalletIssue[]) => Own,
): CommonTransactionEventsSettings & Own {
  if (typeof options !== 'object' || options === null)
    throw new WalletConfigError(name, 'options must be an object');
  const issues: WalletIssue[] = unknownOptionKeys(options, registry).map((key) => ({
    path: key,
    message: 'is not an option',
  }));
  const channel = options.channel ?? settings.defaultChannel;
  const channelProblem = typeof channel === 'string' ? settings.checkChannel(channel) : 'must be a string';
  if (channelProblem !== undefined) issues.push({ path: 'channel', message: channelProblem });
  const trustPeerStatus = options.trustPeerStatus ?? true;
  if (typeof trustPeerStatus !== 'boolean')
    issues.push({ path: 'trustPeerStatus', message: 'must be a boolean' });
  if (options.onError !== undefined && typeof options.onError !== 'function') {
    issues.push({ path: 'onError', message: 'must be a function' });
  }
  if (options.logger !== undefined && (typeof options.logger !== 'object' || options.logger === null)) {
    issues.push({ path: 'logger', message: 'must be an object with any of debug/info/warn/error methods' });
  }
  const own = checkOwn(issues);
  if (issues.length > 0) throw new WalletConfigError(issues, `Invalid ${name} options`);
  return { channel, trustPeerStatus, onError: options.onError, logger: options.logger, ...own };
}

/** `logger` when it is an object, for connections guarded while the options are still being checked. */
export function loggerOrNone(logger: unknown): WalletLogger | undefined {
  return typeof logger === 'object' && logger !== null ? (logger as WalletLogger) : undefined;
}
