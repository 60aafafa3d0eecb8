/**
 * One OpenTelemetry client span per HTTP attempt, built on the client's `merchant-wallet:request`
 * tracing channel (no monkey-patching), with the HTTP client semantic-convention attributes.
 * Without an OpenTelemetry SDK registered the tracer records nothing, so the attributes are also printed.
 *
 * Run: npx tsx examples/opentelemetry-tracing.ts
 */
import diagnostics from 'node:diagnostics_channel';
import { type Attributes, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { WalletClient, type WalletRequestTrace } from 'merchant-wallet';
import { createSandbox, startSandboxServer } from 'merchant-wallet/testing';

const tracer = trace.getTracer('merchant-wallet');
const spans = new WeakMap<WalletRequestTrace, Span>();
const ignore = () => {};

/** OpenTelemetry's `error.type`: the status of a 4xx/5xx answer, or how an attempt without one failed. */
function errorType(attempt: WalletRequestTrace): string | undefined {
  if (attempt.outcome !== 'response') return attempt.outcome;
  return attempt.status !== undefined && attempt.status >= 400 ? String(attempt.status) : undefined;
}

diagnostics.tracingChannel<unknown, WalletRequestTrace>('merchant-wallet:request').subscribe({
  // `start` runs in the caller's async context, so the span is a child of the caller's active span.
  start(attempt) {
    const { url } = attempt;
    const attributes: Attributes = {
      'http.request.method': attempt.method,
      'server.address': url.hostname,
      'server.port': Number(url.port) || (url.protocol === 'https:' ? 443 : 80),
      'url.full': url.href,
      'merchant_wallet.endpoint': attempt.endpoint,
    };
    if (attempt.attempt > 1) attributes['http.request.resend_count'] = attempt.attempt - 1;
    if (attempt.referenceId !== undefined) attributes['merchant_wallet.reference_id'] = attempt.referenceId;
    spans.set(attempt, tracer.startSpan(attempt.method, { kind: SpanKind.CLIENT, attributes }));
  },
  asyncEnd(attempt) {
    const span = spans.get(attempt);
    if (span === undefined) return;
    const attributes: Attributes = {};
    if (attempt.status !== undefined) attributes['http.response.status_code'] = attempt.status;
    const failure = errorType(attempt);
    if (failure !== undefined) {
      attributes['error.type'] = failure;
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.setAttributes(attributes);
    span.end();
    console.log(`span ${attempt.method} ${attempt.endpoint} #${attempt.attempt}`, attributes);
  },
  end: ignore,
  asyncStart: ignore,
  error: ignore,
});

const sandbox = createSandbox();
const server = await startSandboxServer({ sandbox, port: 0 });
try {
  const wallet = new WalletClient({ apiKey: 'sk_sandbox_demo_shop', baseUrl: server.baseUrl });
  const deposit = await wallet.deposit(
    { reference_id: `order-${Date.now()}`, amount: 25, currency: 'KES' },
    { userToken: 'tok_sandbox_bob' },
  );
  const { response } = await wallet.getTransaction(deposit.transaction_id).withResponse();
  console.log(`status read: HTTP ${response.status} in ${response.durationMs.toFixed(1)} ms`);
} finally {
  sandbox.close();
  await server.close();
}
