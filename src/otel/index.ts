/**
 * `merchant-wallet/otel`: OpenTelemetry spans and metrics for the SDK, built on its diagnostics
 * channels. `@opentelemetry/api` is an optional peer dependency, loaded only by this entry.
 * @packageDocumentation
 */

export { enableOpenTelemetry, type WalletTelemetry } from './enable.js';
export { ATTR as WALLET_SPAN_ATTRIBUTES, METRIC as WALLET_METRICS } from './names.js';
export type { OpenTelemetryOptions, PendingPaymentsSource } from './options.js';
