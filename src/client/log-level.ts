import type { WalletLogger } from '../logger.js';

/** How much the client logs: `'debug'` logs every attempt, `'off'` nothing. */
export type WalletLogLevel = 'debug' | 'info' | 'warn' | 'error' | 'off';

/** The levels, least severe first; a level lets through itself and every level after it. */
const LEVELS: readonly WalletLogLevel[] = ['debug', 'info', 'warn', 'error', 'off'];

/** Whether `value` names a log level. */
export function isLogLevel(value: unknown): value is WalletLogLevel {
  return LEVELS.includes(value as WalletLogLevel);
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
