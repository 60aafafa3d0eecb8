/**
 * OpenTelemetry for the SDK in one call: `enableOpenTelemetry()` from `merchant-wallet/otel`. A
 * deposit refused once with a 503 and applied on its retry, against the sandbox, then its trace
 * printed as a tree: your span, the payment's span, one CLIENT span per attempt, and the settlement.
 * A real service exports the spans instead (`@opentelemetry/sdk-node` and an OTLP exporter).
 *
 * Run: npx tsx examples/opentelemetry-tracing.ts
 */
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { createMemoryJournal, WalletClient } from 'merchant-wallet';
import { enableOpenTelemetry } from 'merchant-wallet/otel';
import { createSandbox, startSandboxServer } from 'merchant-wallet/testing';

// What the OpenTelemetry SDK registers when it starts; here by hand, keeping the spans in memory.
const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
propagation.setGlobalPropagator(new W3CTraceContextPropagator());
trace.setGlobalTracerProvider(tracerProvider);

const telemetry = enableOpenTelemetry();

/** Prints `spans` as a tree, children under their parent, with a few attributes each. */
function printTree(spans: readonly ReadableSpan[]): void {
  const shown = ['http.response.status_code', 'error.type', 'http.request.resend_count'];
  const print = (span: ReadableSpan, depth: number) => {
    const attributes = shown.filter((key) => span.attributes[key] !== undefined);
    const details = attributes.map((key) => `${key}=${span.attributes[key]}`).join(' ');
    const reference = span.attributes['merchant_wallet.reference_id'];
    console.log(
      `${'  '.repeat(depth)}${span.name} ${details}${reference ? ` reference_id=${reference}` : ''}`,
    );
    const id = span.spanContext().spanId;
    for (const child of spans.filter((one) => one.parentSpanContext?.spanId === id)) print(child, depth + 1);
  };
  const ids = new Set(spans.map((span) => span.spanContext().spanId));
  for (const root of spans.filter((span) => !ids.has(span.parentSpanContext?.spanId ?? ''))) print(root, 0);
}

const sandbox = createSandbox();
const server = await startSandboxServer({ sandbox, port: 0 });
try {
  const wallet = new WalletClient({
    apiKey: 'sk_sandbox_demo_shop',
    baseUrl: server.baseUrl,
    journal: createMemoryJournal(),
    onSettled: (intent, status) => console.log(`settled ${intent.referenceId}: ${status}`),
  });
  sandbox.faults.inject({
    route: 'deposit',
    kind: 'respond',
    status: 503,
    headers: { 'retry-after': '0' },
    times: 1,
  });
  await trace.getTracer('shop').startActiveSpan('checkout', async (checkout) => {
    await wallet.deposit(
      { reference_id: `order-${Date.now()}`, amount: 25, currency: 'KES' },
      { userToken: 'tok_sandbox_bob' },
    );
    checkout.end();
  });
  printTree(exporter.getFinishedSpans());
} finally {
  telemetry.disable();
  sandbox.close();
  await server.close();
  await tracerProvider.shutdown();
}
