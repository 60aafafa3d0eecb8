import {
  type Context,
  context,
  createContextKey,
  type Span,
  type SpanContext,
  trace,
} from '@opentelemetry/api';

/**
 * The key `@opentelemetry/core`'s `suppressTracing` sets. `createContextKey` makes a
 * `Symbol.for(description)`, so this is the same key without loading `@opentelemetry/core`, and
 * `@opentelemetry/instrumentation-http` and `-undici` (through the SDK's tracer and propagator)
 * see it: under an attempt span they start no span of their own and inject no header.
 */
const SUPPRESS_TRACING = createContextKey('OpenTelemetry SDK Context Key SUPPRESS_TRACING');

/** Runs traced work with `span` active, under `parent`. */
export function scopeOf(parent: Context, span: Span): <T>(work: () => T) => T {
  const active = trace.setSpan(parent, span);
  return (work) => context.with(active, work);
}

/**
 * Runs an HTTP attempt with `span` active and tracing suppressed below it: the attempt span is the
 * one client span of the exchange, so an HTTP instrumentation underneath adds no duplicate.
 */
export function attemptScopeOf(active: Context): <T>(work: () => T) => T {
  const suppressed = active.setValue(SUPPRESS_TRACING, true);
  return (work) => context.with(suppressed, work);
}

/**
 * The span contexts of recent payment spans, by reference id, so that a webhook or settlement span
 * in this process links to its payment (a trace of its own, often minutes later). Bounded: the
 * oldest is forgotten first, and a payment made by another instance is found by the
 * `merchant_wallet.reference_id` attribute instead.
 */
export class RecentPayments {
  readonly #spans = new Map<string, SpanContext>();
  readonly #max: number;

  constructor(max = 10_000) {
    this.#max = max;
  }

  remember(referenceId: string, span: SpanContext): void {
    this.#spans.delete(referenceId);
    this.#spans.set(referenceId, span);
    if (this.#spans.size > this.#max) {
      const oldest = this.#spans.keys().next().value as string;
      this.#spans.delete(oldest);
    }
  }

  /** A link to the payment of `referenceId`, unless unknown here or the span `within` is that payment's. */
  linksFor(referenceId: string | undefined, within: Context): { context: SpanContext }[] | undefined {
    if (referenceId === undefined) return undefined;
    const payment = this.#spans.get(referenceId);
    if (payment === undefined) return undefined;
    const parent = trace.getSpanContext(within);
    if (parent !== undefined && parent.traceId === payment.traceId) return undefined;
    return [{ context: payment }];
  }
}
