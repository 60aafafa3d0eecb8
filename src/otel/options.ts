import type { MeterProvider, TracerProvider } from '@opentelemetry/api';
import { WalletConfigError, type WalletIssue } from '../errors.js';
import { type OptionKeys, unknownOptionKeys } from '../option-keys.js';

/** What the oldest-pending gauge reads: a `WalletClient` with a journal fits. */
export interface PendingPaymentsSource {
  /** The journal's health; only `oldestPendingMs` is read. */
  journalHealth(): Promise<{
    /** How long the oldest pending payment has waited, in milliseconds (0 when none). */
    readonly oldestPendingMs: number;
  }>;
}

/** Options of {@link enableOpenTelemetry}. */
export interface OpenTelemetryOptions {
  /**
   * Where spans go.
   * @default the global tracer provider (`trace.getTracerProvider()`), which the OpenTelemetry SDK sets when it starts
   */
  tracerProvider?: TracerProvider | undefined;
  /**
   * Where metrics go.
   * @default the global meter provider (`metrics.getMeterProvider()`)
   */
  meterProvider?: MeterProvider | undefined;
  /**
   * A client with a journal, for the `merchant_wallet.payment.oldest_pending.age` gauge: read through
   * `journalHealth()` each time metrics are collected (it lists the open and accepted intents, so a
   * collection interval of a minute or more suits it). Without it the gauge is not registered.
   */
  pendingFrom?: PendingPaymentsSource | undefined;
}

const KEYS: OptionKeys<OpenTelemetryOptions> = {
  tracerProvider: true,
  meterProvider: true,
  pendingFrom: true,
};

const hasMethod = (value: unknown, name: string) =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Record<string, unknown>)[name] === 'function';

/**
 * Checks `options`, reporting every problem at once.
 * @throws {WalletConfigError} naming each option at fault.
 */
export function checkOpenTelemetryOptions(options: unknown): OpenTelemetryOptions {
  if (options === undefined) return {};
  if (typeof options !== 'object' || options === null) {
    throw new WalletConfigError('options', 'must be an object');
  }
  const given = options as OpenTelemetryOptions;
  const issues: WalletIssue[] = unknownOptionKeys(given, KEYS).map((path) => ({
    path,
    message: 'is not an option of enableOpenTelemetry',
  }));
  const expect = (key: keyof OpenTelemetryOptions, method: string, what: string) => {
    if (given[key] !== undefined && !hasMethod(given[key], method)) {
      issues.push({ path: key, message: `must be ${what} (an object with ${method}())` });
    }
  };
  expect('tracerProvider', 'getTracer', 'a TracerProvider');
  expect('meterProvider', 'getMeter', 'a MeterProvider');
  expect('pendingFrom', 'journalHealth', 'a WalletClient with a journal');
  if (issues.length > 0) throw new WalletConfigError(issues, 'Invalid OpenTelemetry options');
  return given;
}
