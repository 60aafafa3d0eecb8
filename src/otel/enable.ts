import {
  createNoopMeter,
  type Meter,
  metrics,
  ProxyTracerProvider,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
// Inlined by the bundler (only `version`): the instrumentation scope's version.
import { version as VERSION } from '../../package.json';
import { WalletConfigError } from '../errors.js';
import type { SweptIntent } from '../settlement/sweep.js';
import { subscribeChannel, subscribeTracing } from './channels.js';
import { httpSpans } from './http-spans.js';
import { instrumentsOn, type Telemetry } from './instruments.js';
import { ATTR, METRIC, SCOPE_NAME } from './names.js';
import {
  checkOpenTelemetryOptions,
  type OpenTelemetryOptions,
  type PendingPaymentsSource,
} from './options.js';
import { paymentSpans } from './payment-spans.js';
import { RecentPayments } from './scope.js';
import { settlementSpans } from './settlement-spans.js';
import { webhookSpans } from './webhook-spans.js';

/** What {@link enableOpenTelemetry} returns. */
export interface WalletTelemetry {
  /** Stops recording: unsubscribes from the channels, and the pending-payments gauge reads no more. Idempotent. */
  disable(): void;
}

/** Registers the oldest-pending gauge, read from `source` at each collection; answers how to stop it. */
function observePending(telemetry: ReturnType<typeof metrics.getMeter>, source: PendingPaymentsSource) {
  const gauge = telemetry.createObservableGauge(METRIC.oldestPending, {
    description: 'Age of the oldest payment the journal holds pending.',
    unit: 's',
  });
  const callback = async (result: { observe(value: number): void }) => {
    // A journal that cannot answer reports nothing rather than a misleading 0.
    const health = await source.journalHealth().catch(() => undefined);
    if (health !== undefined) result.observe(health.oldestPendingMs / 1000);
  };
  gauge.addCallback(callback);
  return () => gauge.removeCallback(callback);
}

let enabled: (() => void) | undefined;

/**
 * Whether nothing would be recorded: the tracer provider is the API's no-op one (directly, or behind
 * the global proxy with no SDK registered) and the meter is the API's no-op meter. The metrics API
 * has no proxy, so a meter taken before an SDK registers stays a no-op: there is nothing to wait for.
 */
function recordsNothing(tracerProvider: TracerProvider, meter: Meter): boolean {
  const provider =
    tracerProvider instanceof ProxyTracerProvider ? tracerProvider.getDelegate() : tracerProvider;
  return provider.constructor === NOOP_TRACER_PROVIDER_CLASS && meter.constructor === NOOP_METER_CLASS;
}

const NOOP_TRACER_PROVIDER_CLASS = new ProxyTracerProvider().getDelegate().constructor;
const NOOP_METER_CLASS = createNoopMeter().constructor;

/**
 * Turns the SDK's diagnostics channels into OpenTelemetry spans and metrics, for every
 * `WalletClient` and webhook handler of the process: a CLIENT span per HTTP attempt following the
 * HTTP semantic conventions (with `traceparent` sent to the service), a span per deposit or
 * withdrawal across its attempts, spans for webhook deliveries and settlements linked to their
 * payment, and the metrics in docs/observability.md. No span, attribute or metric carries the API
 * key, a user token, a body or a user's e-mail.
 *
 * Call it once the OpenTelemetry SDK started: when nothing would record (no SDK registered and no
 * providers given) it subscribes to nothing, so the client runs as without it, and the handle it
 * returns counts as not enabled (call it again once an SDK is registered).
 *
 * @throws {WalletConfigError} for a bad option, or when it is already enabled (call `disable()` first).
 * @example
 * import { enableOpenTelemetry } from 'merchant-wallet/otel';
 * const telemetry = enableOpenTelemetry(); // after the OpenTelemetry SDK started
 * process.once('SIGTERM', () => telemetry.disable());
 */
export function enableOpenTelemetry(options?: OpenTelemetryOptions): WalletTelemetry {
  const { tracerProvider, meterProvider, pendingFrom } = checkOpenTelemetryOptions(options);
  if (enabled !== undefined) {
    throw new WalletConfigError('enableOpenTelemetry', 'is already enabled: call disable() on it first');
  }
  const tracers = tracerProvider ?? trace.getTracerProvider();
  const tracer = tracers.getTracer(SCOPE_NAME, VERSION);
  const meter = (meterProvider ?? metrics.getMeterProvider()).getMeter(SCOPE_NAME, VERSION);
  // Nothing to record into: subscribing would only put every call on the traced path.
  if (recordsNothing(tracers, meter)) return { disable: () => {} };
  const telemetry: Telemetry = { tracer, recent: new RecentPayments(), ...instrumentsOn(meter) };
  const stops = [
    subscribeTracing('merchant-wallet:payment', paymentSpans(telemetry)),
    subscribeTracing('merchant-wallet:request', httpSpans(telemetry)),
    subscribeTracing('merchant-wallet:webhook', webhookSpans(telemetry)),
    subscribeTracing('merchant-wallet:settlement', settlementSpans(telemetry)),
    subscribeChannel<SweptIntent>('merchant-wallet:sweep', (swept) =>
      telemetry.sweeperClaims.add(1, {
        [ATTR.sweeperAction]: swept.action,
        [ATTR.sweeperOutcome]: swept.outcome,
      }),
    ),
  ];
  if (pendingFrom !== undefined) stops.push(observePending(meter, pendingFrom));
  const disable = () => {
    if (enabled !== disable) return;
    enabled = undefined;
    for (const stop of stops) stop();
  };
  enabled = disable;
  return { disable };
}
