/**
 * With `@opentelemetry/instrumentation-http` and `-undici` also running, as in a merchant's usual
 * setup: one tree, one CLIENT span per attempt (the SDK's), and the service's SERVER span under it.
 */
import { createRequire } from 'node:module';
import { context, propagation, SpanKind, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { enableOpenTelemetry, type WalletTelemetry } from '../../src/otel/index.js';
import { TOKENS, TRANSPORTS, useServerTarget } from '../integration/harness.js';
import { parentOf } from './support/otel-harness.js';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
propagation.setGlobalPropagator(new W3CTraceContextPropagator());
trace.setGlobalTracerProvider(provider);
const instrumentations = [new HttpInstrumentation(), new UndiciInstrumentation()];
for (const instrumentation of instrumentations) instrumentation.setTracerProvider(provider);
// Loading `http` after the instrumentation is enabled is what patches it, as an SDK started first does.
createRequire(import.meta.url)('node:http');

const target = useServerTarget();
let telemetry: WalletTelemetry;
beforeAll(() => {
  telemetry = enableOpenTelemetry();
});
afterAll(async () => {
  telemetry.disable();
  for (const instrumentation of instrumentations) instrumentation.disable();
  await provider.shutdown();
});
afterEach(() => exporter.reset());

describe.each(TRANSPORTS)('over the %s transport', (transport) => {
  test('each attempt has one CLIENT span, the SDK’s, and the service’s SERVER span is its child', async () => {
    const wallet = target().client(transport);
    const tracer = trace.getTracer('shop');
    await tracer.startActiveSpan('checkout', async (checkout) => {
      await wallet.deposit(
        { reference_id: `order-${crypto.randomUUID()}`, amount: 25, currency: 'KES' },
        { userToken: TOKENS.bob },
      );
      checkout.end();
    });
    const spans = exporter.getFinishedSpans();
    const clients = spans.filter((span) => span.kind === SpanKind.CLIENT);
    expect(clients.map((span) => [span.name, span.instrumentationScope.name])).toEqual([
      ['POST /merchants/transactions/c2b', 'merchant-wallet'],
    ]);
    const [attempt] = clients;
    const servers = spans.filter((span) => span.kind === SpanKind.SERVER);
    expect(servers).toHaveLength(1);
    expect(parentOf(servers[0] as (typeof spans)[0])).toBe(attempt?.spanContext().spanId);
    const checkout = spans.find((span) => span.name === 'checkout');
    const payment = spans.find((span) => span.name === 'merchant_wallet.deposit');
    expect(parentOf(payment as (typeof spans)[0])).toBe(checkout?.spanContext().spanId);
    expect(parentOf(attempt as (typeof spans)[0])).toBe(payment?.spanContext().spanId);
    expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);
  });
});
