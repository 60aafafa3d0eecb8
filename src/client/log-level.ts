import type { WalletIssue } from '../errors.js';
import type { WalletLogger } from '../logger.js';

/** How much the client logs: `'debug'` logs every attempt, `'off'` nothing. */
export type WalletLogLevel = 'debug' | 'info' | 'warn' | 'error' | 'off';

/** The levels, least severe first; a level lets through itself and every level after it. */
const LEVELS: readonly WalletLogLevel[] = ['debug', 'info', 'warn', 'error', 'off'];

/**
 * The `logLevel` option, or `WALLET_LOG` when it is absent (`fromEnv`); a bad value is added to
 * `issues`, naming where it came from.
 */
export function checkLogLevel(
  level: unknown,
  fromEnv: boolean,
  issues: WalletIssue[],
): WalletLogLevel | undefined {
  if (level === undefined || LEVELS.includes(level as WalletLogLevel)) return level as WalletLogLevel;
  const source = fromEnv ? 'WALLET_LOG' : 'logLevel';
  issues.push({
    path: 'logLevel',
    message: `${source} must be one of 'debug', 'info', 'warn', 'error', 'off'`,
  });
  return undefined;
}

/**
 * The logger the client calls: only the methods at or above `level`, so a filtered-out line
 * costs one optional call that does nothing. Without a logger, a level that was asked for
 * (option or `WALLET_LOG`) logs to `console`; otherwise nothing is logged.
 */
export function levelledLogger(
  logger: WalletLogger | undefined,
  level: WalletLogLevel | undefined,
): WalletLogger | undefined {
  const target = logger ?? (level === undefined ? undefined : (console as WalletLogger));
  if (target === undefined) return undefined;
  const lowest = LEVELS.indexOf(level ?? 'warn');
  const filtered: WalletLogger = {};
  // `off` is last and has no method, so slicing from it passes nothing on.
  for (const name of LEVELS.slice(lowest) as Array<keyof WalletLogger | 'off'>) {
    const method = name === 'off' ? undefined : target[name];
    if (method) filtered[name as keyof WalletLogger] = method.bind(target);
  }
  return filtered;
}
