/**
 * The cost of `merchant-wallet/otel` on `getTransaction` at concurrency 64 against one loopback server
 * on its own thread: the client without the entry, with it enabled but no OpenTelemetry SDK (the
 * API's no-op providers), and with the SDK as a merchant runs it (a `BasicTracerProvider` with the
 * default always-on sampler and a `BatchSpanProcessor` whose exporter drops each batch, a
 * `MeterProvider` with a `PeriodicExportingMetricReader` collecting every 10 s into an exporter that
 * drops, the `AsyncLocalStorage` context manager and W3C propagation), against the same process with
 * the SDK registered and the entry off:
 * a merchant who runs the SDK pays for its context manager (an `AsyncLocalStorage` on every
 * promise, on Node 20) whether or not the entry records, so the entry's cost is the difference.
 * Side by side in one run: each round runs short bursts in every state in turn, so load from other
 * processes falls on all of them alike.
 */
import { Worker } from 'node:worker_threads';
import { context, propagation } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  AggregationTemporality,
  MeterProvider,
  PeriodicExportingMetricReader,
  type PushMetricExporter,
} from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import type * as Package from '../src/index.js';
import type * as Otel from '../src/otel/index.js';
import { median, SERVER } from './throughput.js';

// The built package, as users run it (`npm run bench` builds first).
const { WalletClient }: typeof Package = await import(new URL('../dist/index.js', import.meta.url).href);
const { enableOpenTelemetry }: typeof Otel = await import(new URL('../dist/otel.js', import.meta.url).href);

/** Drops every span: the cost measured is the SDK's and the entry's, not an exporter's network. */
const dropping: SpanExporter = { export: (_spans, done) => done({ code: 0 }), shutdown: async () => {} };

/** Drops every collection: the cost measured is collecting, not sending. */
const droppingMetrics: PushMetricExporter = {
  export: (_metrics, done) => done({ code: 0 }),
  forceFlush: async () => {},
  shutdown: async () => {},
  selectAggregationTemporality: () => AggregationTemporality.CUMULATIVE,
};

export interface OtelOverhead {
  /** req/s with the entry enabled and no SDK, over req/s without it: median of per-round ratios. */
  readonly noSdkRatio: number;
  /** req/s with the entry and the SDK, over req/s with the SDK registered and the entry off. */
  readonly sdkRatio: number;
  /** req/s with the entry and the SDK, over req/s with neither. */
  readonly sdkVsNothingRatio: number;
  /** Median req/s of each state. */
  readonly perSecond: {
    readonly off: number;
    readonly noSdk: number;
    readonly sdkOff: number;
    readonly sdk: number;
  };
}

type State = keyof OtelOverhead['perSecond'];

export async function measureOtelOverhead(rounds = 9, passes = 4, burst = 2000): Promise<OtelOverhead> {
  const worker = new Worker(SERVER, { eval: true });
  const port = await new Promise<number>((resolve) => worker.once('message', resolve));
  const wallet = new WalletClient({ apiKey: 'sk_bench', baseUrl: `http://127.0.0.1:${port}` });
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropping)] });
  const meterProvider = new MeterProvider({
    readers: [new PeriodicExportingMetricReader({ exporter: droppingMetrics, exportIntervalMillis: 10_000 })],
  });
  const manager = new AsyncLocalStorageContextManager();
  const registerSdk = () => {
    context.setGlobalContextManager(manager.enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    return () => {
      context.disable();
      propagation.disable();
    };
  };
  const enter: Record<State, () => () => void> = {
    off: () => () => {},
    noSdk: () => enableOpenTelemetry().disable,
    sdkOff: registerSdk,
    sdk: () => {
      const unregister = registerSdk();
      const { disable } = enableOpenTelemetry({ tracerProvider, meterProvider });
      return () => {
        disable();
        unregister();
      };
    },
  };
  const run = async (calls: number) => {
    let started = 0;
    const loop = async () => {
      while (started < calls) {
        started += 1;
        await wallet.getTransaction('txn_1');
      }
    };
    const begin = performance.now();
    await Promise.all(Array.from({ length: 64 }, loop));
    return performance.now() - begin;
  };
  const states = Object.keys(enter) as State[];
  const series: Record<State, number[]> = { off: [], noSdk: [], sdkOff: [], sdk: [] };
  try {
    for (const state of states) {
      const leave = enter[state]();
      await run(burst);
      leave();
    }
    for (let round = 0; round < rounds; round++) {
      const spent: Record<State, number> = { off: 0, noSdk: 0, sdkOff: 0, sdk: 0 };
      for (let pass = 0; pass < passes; pass++) {
        for (let offset = 0; offset < states.length; offset++) {
          const state = states[(pass + offset) % states.length] as State;
          const leave = enter[state]();
          spent[state] += await run(burst);
          leave();
        }
      }
      for (const state of states) series[state].push(((passes * burst) / spent[state]) * 1000);
    }
  } finally {
    await wallet.close();
    await tracerProvider.shutdown();
    await meterProvider.shutdown();
    await worker.terminate();
  }
  const ratio = (state: State, base: State = 'off') =>
    median(series[state].map((value, round) => value / (series[base][round] ?? 0)));
  return {
    noSdkRatio: ratio('noSdk'),
    sdkRatio: ratio('sdk', 'sdkOff'),
    sdkVsNothingRatio: ratio('sdk'),
    perSecond: {
      off: median(series.off),
      noSdk: median(series.noSdk),
      sdkOff: median(series.sdkOff),
      sdk: median(series.sdk),
    },
  };
}

/** The bench's lines for the three states. */
export function otelTable(report: OtelOverhead): string {
  const row = (name: string, perSecond: number, ratio: number) =>
    `${name.padEnd(44)} ${Math.round(perSecond).toLocaleString('en').padStart(11)} ${ratio.toFixed(3).padStart(8)}\n`;
  return (
    `${'getTransaction at c=64'.padEnd(44)} ${'req/s'.padStart(11)} ${'× off'.padStart(8)}\n` +
    row('without merchant-wallet/otel', report.perSecond.off, 1) +
    row('otel enabled, no OpenTelemetry SDK', report.perSecond.noSdk, report.noSdkRatio) +
    row('SDK registered, otel off', report.perSecond.sdkOff, report.perSecond.sdkOff / report.perSecond.off) +
    row('SDK registered, otel enabled', report.perSecond.sdk, report.sdkVsNothingRatio) +
    `otel enabled vs off, both with the SDK registered: ${report.sdkRatio.toFixed(3)}\n`
  );
}
