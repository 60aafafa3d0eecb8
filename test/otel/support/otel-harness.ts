import { context, propagation } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import {
  enableOpenTelemetry,
  type OpenTelemetryOptions,
  type WalletTelemetry,
} from '../../../src/otel/index.js';

/** A reader collected on demand: no timer, so no test waits on an export interval. */
class CollectingReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

/** One data point of a metric: its attributes and value (a number, or a histogram's `{ count, sum }`). */
export interface Point {
  readonly attributes: Record<string, unknown>;
  readonly value: number | { readonly count: number; readonly sum?: number };
}

/** The real SDK as a merchant wires it: in-memory span exporter, a metric reader, W3C propagation. */
export interface OtelHarness {
  readonly exporter: InMemorySpanExporter;
  readonly tracerProvider: BasicTracerProvider;
  readonly meterProvider: MeterProvider;
  spans(): ReadableSpan[];
  span(name: string): ReadableSpan;
  /** The data points of metric `name`, and its unit. */
  metric(name: string): Promise<{ unit: string; points: Point[] }>;
}

/**
 * Registers the context manager and propagator for the file, and per test fresh providers and
 * `enableOpenTelemetry` with them (`extra` added to its options), disabled after.
 */
export function useOtel(extra: () => Partial<OpenTelemetryOptions> = () => ({})): OtelHarness {
  const manager = new AsyncLocalStorageContextManager();
  let state:
    | {
        exporter: InMemorySpanExporter;
        tracerProvider: BasicTracerProvider;
        meterProvider: MeterProvider;
        reader: CollectingReader;
        telemetry: WalletTelemetry;
      }
    | undefined;
  beforeAll(() => {
    context.setGlobalContextManager(manager.enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  });
  afterAll(() => {
    context.disable();
    propagation.disable();
  });
  beforeEach(() => {
    const exporter = new InMemorySpanExporter();
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const reader = new CollectingReader();
    const meterProvider = new MeterProvider({ readers: [reader] });
    const telemetry = enableOpenTelemetry({ tracerProvider, meterProvider, ...extra() });
    state = { exporter, tracerProvider, meterProvider, reader, telemetry };
  });
  afterEach(async () => {
    state?.telemetry.disable();
    await state?.meterProvider.shutdown();
    await state?.tracerProvider.shutdown();
  });
  const current = () => {
    if (state === undefined) throw new Error('useOtel is read outside a test');
    return state;
  };
  return {
    get exporter() {
      return current().exporter;
    },
    get tracerProvider() {
      return current().tracerProvider;
    },
    get meterProvider() {
      return current().meterProvider;
    },
    spans: () => current().exporter.getFinishedSpans(),
    span(name) {
      const found = current()
        .exporter.getFinishedSpans()
        .filter((span) => span.name === name);
      if (found.length !== 1) throw new Error(`${found.length} spans named ${name}`);
      return found[0] as ReadableSpan;
    },
    async metric(name) {
      const { resourceMetrics } = await current().reader.collect();
      const metric = resourceMetrics.scopeMetrics
        .flatMap((scope) => scope.metrics)
        .find((one) => one.descriptor.name === name);
      if (metric === undefined) return { unit: '', points: [] };
      const points = (
        metric.dataPoints as { attributes: Record<string, unknown>; value: Point['value'] }[]
      ).map(({ attributes, value }) => ({ attributes, value }));
      return { unit: metric.descriptor.unit, points };
    },
  };
}

/** Every attribute value of every span, and each link's and event's, as one string: to look for secrets. */
export function everythingRecorded(spans: readonly ReadableSpan[]): string {
  return JSON.stringify(
    spans.map((span) => [span.name, span.attributes, span.events, span.links, span.status]),
  );
}

/** The id of the span's parent, or `undefined` for a root span. */
export function parentOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}
