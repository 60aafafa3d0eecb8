/**
 * The states the OpenTelemetry benches compare, and how they run side by side. `off`: the client
 * without `merchant-wallet/otel`; `noSdk`: the entry enabled with no OpenTelemetry SDK (the API's
 * no-op providers); `sdkOff`: the SDK registered as a merchant runs it, the entry off; `sdk`: both.
 *
 * The SDK is a realistic one: a `BasicTracerProvider` with the default always-on sampler and a
 * `BatchSpanProcessor` whose exporter drops each batch, a `MeterProvider` with a
 * `PeriodicExportingMetricReader` collecting every 10 s into an exporter that drops, the
 * `AsyncLocalStorage` context manager and W3C propagation. Registering it enters its context
 * manager once, as a merchant's server instrumentation does on the first request it handles: from
 * then on Node 20 runs the `AsyncLocalStorage` hook on every promise of the process, whether or not
 * the entry records, so that cost is in `sdkOff` as it is in a merchant's process, and the entry's
 * cost is the difference between `sdk` and `sdkOff`.
 */
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
import type * as Otel from '../src/otel/index.js';
import { median } from './throughput.js';

/** Drops every span: the cost measured is the SDK's and the entry's, not an exporter's network. */
export const dropping: SpanExporter = {
  export: (_spans, done) => done({ code: 0 }),
  shutdown: async () => {},
};

/** Drops every collection: the cost measured is collecting, not sending. */
export const droppingMetrics: PushMetricExporter = {
  export: (_metrics, done) => done({ code: 0 }),
  forceFlush: async () => {},
  shutdown: async () => {},
  selectAggregationTemporality: () => AggregationTemporality.CUMULATIVE,
};

export const STATES = ['off', 'noSdk', 'sdkOff', 'sdk'] as const;
export type State = (typeof STATES)[number];

/** How to enter each state (answering how to leave it), and how to shut the SDK down at the end. */
export function otelStates(enableOpenTelemetry: typeof Otel.enableOpenTelemetry) {
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropping)] });
  const meterProvider = new MeterProvider({
    readers: [new PeriodicExportingMetricReader({ exporter: droppingMetrics, exportIntervalMillis: 10_000 })],
  });
  const manager = new AsyncLocalStorageContextManager();
  const registerSdk = () => {
    context.setGlobalContextManager(manager.enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    // What a server instrumentation does per request: the context manager's store is in use.
    context.with(context.active(), () => {});
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
  const shutdown = async () => {
    await tracerProvider.shutdown();
    await meterProvider.shutdown();
  };
  return { enter, shutdown };
}

/** Each state's calls per second and µs of CPU per call (this process, every thread), per round. */
export interface Series<S extends string> {
  readonly perSecond: Record<S, number[]>;
  readonly cpuMicros: Record<S, number[]>;
}

/**
 * Runs `calls(burst)` in every state of `states`, `passes` times per round in a rotating order, for
 * `rounds` rounds after one warm-up burst each: load from other processes falls on every state alike.
 */
export async function sideBySide<S extends State>(
  states: readonly S[],
  enter: Record<State, () => () => void>,
  calls: (count: number) => Promise<void>,
  { rounds, passes, burst }: { rounds: number; passes: number; burst: number },
): Promise<Series<S>> {
  const empty = () =>
    Object.fromEntries(states.map((state) => [state, [] as number[]])) as Record<S, number[]>;
  const series: Series<S> = { perSecond: empty(), cpuMicros: empty() };
  for (const state of states) {
    const leave = enter[state]();
    await calls(burst);
    leave();
  }
  for (let round = 0; round < rounds; round++) {
    const spent = Object.fromEntries(states.map((state) => [state, { ms: 0, cpu: 0 }])) as Record<
      S,
      { ms: number; cpu: number }
    >;
    for (let pass = 0; pass < passes; pass++) {
      for (let offset = 0; offset < states.length; offset++) {
        const state = states[(pass + offset) % states.length] as S;
        const leave = enter[state]();
        const cpu = process.cpuUsage();
        const begin = performance.now();
        await calls(burst);
        spent[state].ms += performance.now() - begin;
        const used = process.cpuUsage(cpu);
        spent[state].cpu += used.user + used.system;
        leave();
      }
    }
    for (const state of states) {
      series.perSecond[state].push(((passes * burst) / spent[state].ms) * 1000);
      series.cpuMicros[state].push(spent[state].cpu / (passes * burst));
    }
  }
  return series;
}

/** The median over rounds of `state`'s calls per second over `base`'s in the same round. */
export function ratioOf<S extends string>(series: Series<S>, state: S, base: S): number {
  const bases = series.perSecond[base];
  return median(series.perSecond[state].map((value, round) => value / (bases[round] ?? 0)));
}

/** The median over rounds of `state`'s µs of CPU per call minus `base`'s in the same round. */
export function extraCpuOf<S extends string>(series: Series<S>, state: S, base: S): number {
  const bases = series.cpuMicros[base];
  return median(series.cpuMicros[state].map((value, round) => value - (bases[round] ?? 0)));
}

/** `count` calls of `call`, `concurrency` at a time. */
export async function concurrently(
  count: number,
  concurrency: number,
  call: (n: number) => Promise<unknown>,
) {
  let started = 0;
  const loop = async () => {
    while (started < count) {
      started += 1;
      await call(started);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
}
