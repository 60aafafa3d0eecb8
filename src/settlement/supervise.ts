import { WalletRequestValidationError } from '../errors.js';
import { isAbortSignal, isPositiveMs, MAX_TIMER_MS, POSITIVE_MS } from '../limits.js';
import type { WalletLogger } from '../logger.js';
import { describeError } from './settle.js';
import type { SweepOptions, SweepReport } from './sweep.js';

/** Options of `wallet.supervise()`. */
export interface SuperviseOptions extends SweepOptions {
  /** Stops the loop; the sweep in progress finishes first. */
  signal: AbortSignal;
  /**
   * The pause between two sweeps that found nothing to do; a sweep that filled its `limit` is
   * followed at once by the next.
   * @default 5000
   */
  intervalMs?: number | undefined;
  /** Called with each sweep's report (for metrics); errors it throws are logged. */
  onSweep?: ((report: SweepReport) => void) | undefined;
}

/**
 * Runs `sweep` until `signal` aborts: at once again while sweeps come back full, else after
 * `intervalMs`. A sweep that throws (the journal's store is down) is logged and tried again after
 * the interval. Resolves once stopped.
 */
export async function supervise(
  sweep: (options: SweepOptions) => Promise<SweepReport>,
  options: SuperviseOptions,
  logger: WalletLogger | undefined,
): Promise<void> {
  const { signal, intervalMs = 5_000, onSweep, ...sweepOptions } = options ?? ({} as SuperviseOptions);
  if (!isAbortSignal(signal)) {
    throw new WalletRequestValidationError([{ path: 'options.signal', message: 'must be an AbortSignal' }]);
  }
  if (!isPositiveMs(intervalMs, MAX_TIMER_MS)) {
    throw new WalletRequestValidationError([{ path: 'options.intervalMs', message: POSITIVE_MS }]);
  }
  const limit = sweepOptions.limit ?? 100;
  while (!signal.aborted) {
    let full = false;
    try {
      const report = await sweep(sweepOptions);
      full = report.claimed >= limit;
      onSweep?.(report);
    } catch (error) {
      logger?.error?.('A sweep failed; the next one runs after the interval', {
        error: describeError(error),
      });
    }
    if (!full) await pause(intervalMs, signal);
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
