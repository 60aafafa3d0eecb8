/**
 * Where the OpenTelemetry entry's time goes, one state per process so that a CPU profile holds one:
 * `node --cpu-prof --cpu-prof-dir=DIR --import tsx bench/otel-profile.ts [state] [calls]`, then
 * `node bench/cpu-profile-summary.mjs DIR/<main thread's>.cpuprofile` (self time by function and by
 * file). `getTransaction` at concurrency 64 against the loopback server thread of `otel-overhead.ts`,
 * from the sources, with its SDK (see `otel-states.ts`); prints calls/s and µs of CPU per call (every
 * thread of the process). States, each with the SDK registered and its context manager in use:
 *
 * - `sdkOff`: the entry off; `sdk`: the entry on, recording spans and metrics;
 * - `channel`: a subscriber on `merchant-wallet:request` that does nothing (the channel's own cost);
 * - `channelScope`: one that runs each attempt in a context of its own (the cost of the scope);
 * - `unsampled`: the entry on with a tracer that samples nothing (metrics, scope and propagation only);
 * - `noMetrics`: the entry on with a meter provider that has no reader (spans only).
 */
import { tracingChannel } from 'node:diagnostics_channel';
import { Worker } from 'node:worker_threads';
import { context, createContextKey } from '@opentelemetry/api';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { AlwaysOffSampler, BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { WalletClient } from '../src/index.js';
import { enableOpenTelemetry } from '../src/otel/index.js';
import { concurrently, dropping, droppingMetrics, otelStates } from './otel-states.js';
import { SERVER } from './throughput.js';

const state = process.argv[2] ?? 'sdk';
const calls = Number(process.argv[3] ?? 40_000);

const worker = new Worker(SERVER, { eval: true });
const port = await new Promise<number>((resolve) => worker.once('message', resolve));
const wallet = new WalletClient({ apiKey: 'sk_bench', baseUrl: `http://127.0.0.1:${port}` });
const states = otelStates(enableOpenTelemetry);
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropping)] });
const meterProvider = new MeterProvider({
  readers: [new PeriodicExportingMetricReader({ exporter: droppingMetrics, exportIntervalMillis: 10_000 })],
});

const subscriber = (scoped: boolean) => {
  const active = context.active().setValue(createContextKey('otel-profile scope'), true);
  tracingChannel('merchant-wallet:request').subscribe({
    start(message: { runInScope?: <T>(work: () => T) => T }) {
      if (scoped) message.runInScope = (work) => context.with(active, work);
    },
    end() {},
    asyncStart() {},
    asyncEnd() {},
    error() {},
  } as never);
};
const setUps: Record<string, () => void> = {
  sdkOff: () => {},
  sdk: () => enableOpenTelemetry({ tracerProvider, meterProvider }),
  channel: () => subscriber(false),
  channelScope: () => subscriber(true),
  unsampled: () =>
    enableOpenTelemetry({
      tracerProvider: new BasicTracerProvider({ sampler: new AlwaysOffSampler() }),
      meterProvider,
    }),
  noMetrics: () => enableOpenTelemetry({ tracerProvider, meterProvider: new MeterProvider() }),
};
const setUp = setUps[state];
if (setUp === undefined) throw new Error(`state is one of ${Object.keys(setUps).join(', ')}`);
states.enter.sdkOff();
setUp();

const cpu = process.cpuUsage();
const begin = performance.now();
await concurrently(calls, 64, () => wallet.getTransaction('txn_1'));
const elapsed = performance.now() - begin;
const used = process.cpuUsage(cpu);
process.stdout.write(
  `${state}: ${Math.round((calls / elapsed) * 1000)} calls/s, ${((used.user + used.system) / calls).toFixed(1)} µs of CPU per call\n`,
);
await wallet.close();
await tracerProvider.shutdown();
await meterProvider.shutdown();
await states.shutdown();
await worker.terminate();
