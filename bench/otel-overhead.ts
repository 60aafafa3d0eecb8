/**
 * The cost of `merchant-wallet/otel`, side by side in one run (see `otel-states.ts` for the states
 * and the SDK), measured twice:
 *
 * - at zero latency, where the entry's CPU cost is most visible: `getTransaction` at concurrency 64
 *   against one loopback server on its own thread that answers at once, in all four states;
 * - as a merchant runs it: withdrawals at concurrency 64 against the sandbox in a process of its
 *   own holding every request 20 ms (the journal bench's `sandbox-process.ts`), SDK registered with
 *   the entry off and on. Each withdrawal is a payment span over an attempt span, and records the
 *   payment and HTTP duration histograms.
 *
 * Each also reports the µs of CPU per call of this process (every thread) in each state, the
 * figure that does not depend on how much of the machine other processes take.
 */
import { Worker } from 'node:worker_threads';
import type * as Package from '../src/index.js';
import type * as Otel from '../src/otel/index.js';
import {
  concurrently,
  extraCpuOf,
  otelStates,
  ratioOf,
  STATES,
  type State,
  sideBySide,
} from './otel-states.js';
import { startSandboxProcess, stopSandboxProcess } from './sandbox-process-control.js';
import { median, SERVER } from './throughput.js';

// The built package, as users run it (`npm run bench` builds first).
const { WalletClient }: typeof Package = await import(new URL('../dist/index.js', import.meta.url).href);
const { enableOpenTelemetry }: typeof Otel = await import(new URL('../dist/otel.js', import.meta.url).href);

const CONCURRENCY = 64;
/** The remote service's latency per request, as in the journal bench. */
export const REMOTE_LATENCY_MS = 20;
/**
 * Withdrawals in flight against the remote service: 16 at 20 ms is up to 800 payments/s from one
 * process, more than a shop makes, and few enough that the bench's two cores (shared with the
 * sandbox process) keep up, so that the ratio shows what a merchant's callers wait, not how much
 * of a saturated CPU the entry takes (that is the zero-latency figure). `latencyBound` says whether
 * it held: the baseline's withdrawals/s over the most the latency allows.
 */
export const REMOTE_CONCURRENCY = 16;

export interface OtelOverhead {
  /** req/s with the entry enabled and no SDK, over req/s without it: median of per-round ratios. */
  readonly noSdkRatio: number;
  /** req/s with the entry and the SDK, over req/s with the SDK registered and the entry off. */
  readonly sdkRatio: number;
  /** req/s with the entry and the SDK, over req/s with neither. */
  readonly sdkVsNothingRatio: number;
  /** µs of CPU per call the entry adds with the SDK registered (`sdk` − `sdkOff`), median of rounds. */
  readonly sdkCpuMicros: number;
  /** Median req/s of each state. */
  readonly perSecond: Record<State, number>;
  /** Median µs of CPU per call of each state. */
  readonly cpuMicros: Record<State, number>;
  /** Withdrawals against the sandbox at {@link REMOTE_LATENCY_MS}, SDK registered. */
  readonly remote: {
    /** Withdrawals/s with the entry enabled over with it off: median of per-round ratios. */
    readonly sdkRatio: number;
    /** µs of CPU per withdrawal the entry adds, median of rounds. */
    readonly sdkCpuMicros: number;
    readonly perSecond: Record<'sdkOff' | 'sdk', number>;
    readonly cpuMicros: Record<'sdkOff' | 'sdk', number>;
    /** Withdrawals in flight. */
    readonly concurrency: number;
    /** The entry-off withdrawals/s over the most {@link REMOTE_CONCURRENCY} calls of {@link REMOTE_LATENCY_MS} allow. */
    readonly latencyBound: number;
  };
}

const medians = <S extends string>(values: Record<S, number[]>) =>
  Object.fromEntries(
    Object.entries<number[]>(values).map(([state, series]) => [state, median(series)]),
  ) as Record<S, number>;

/** `getTransaction` at zero latency, in all four states. */
async function atZeroLatency(states: ReturnType<typeof otelStates>, rounds: number, passes: number) {
  const worker = new Worker(SERVER, { eval: true });
  const port = await new Promise<number>((resolve) => worker.once('message', resolve));
  const wallet = new WalletClient({ apiKey: 'sk_bench', baseUrl: `http://127.0.0.1:${port}` });
  try {
    return await sideBySide(
      STATES,
      states.enter,
      (count) => concurrently(count, CONCURRENCY, () => wallet.getTransaction('txn_1')),
      { rounds, passes, burst: 2000 },
    );
  } finally {
    await wallet.close();
    await worker.terminate();
  }
}

/** Withdrawals against the sandbox in its own process at {@link REMOTE_LATENCY_MS}, entry off and on. */
async function remotely(states: ReturnType<typeof otelStates>, rounds: number, concurrency: number) {
  const sandbox = await startSandboxProcess(REMOTE_LATENCY_MS);
  const wallet = new WalletClient({
    apiKey: 'sk_sandbox_demo_shop',
    baseUrl: sandbox.baseUrl,
    maxSockets: concurrency,
  });
  let burst = 0;
  try {
    return await sideBySide(
      ['sdkOff', 'sdk'] as const,
      states.enter,
      async (count) => {
        burst += 1;
        await concurrently(count, concurrency, (n) =>
          wallet.withdraw({
            reference_id: `otel-bench-${burst}-${n}`,
            email: 'bob@example.com',
            amount: 1,
            currency: 'KES',
          }),
        );
      },
      { rounds, passes: 2, burst: concurrency * 25 },
    );
  } finally {
    await wallet.close();
    await stopSandboxProcess(sandbox);
  }
}

export async function measureOtelOverhead(
  rounds = 9,
  passes = 4,
  remoteConcurrency = REMOTE_CONCURRENCY,
): Promise<OtelOverhead> {
  const states = otelStates(enableOpenTelemetry);
  try {
    const local = await atZeroLatency(states, rounds, passes);
    const remote = await remotely(states, Math.ceil(rounds / 2), remoteConcurrency);
    const remotePerSecond = medians(remote.perSecond);
    return {
      noSdkRatio: ratioOf(local, 'noSdk', 'off'),
      sdkRatio: ratioOf(local, 'sdk', 'sdkOff'),
      sdkVsNothingRatio: ratioOf(local, 'sdk', 'off'),
      sdkCpuMicros: extraCpuOf(local, 'sdk', 'sdkOff'),
      perSecond: medians(local.perSecond),
      cpuMicros: medians(local.cpuMicros),
      remote: {
        sdkRatio: ratioOf(remote, 'sdk', 'sdkOff'),
        sdkCpuMicros: extraCpuOf(remote, 'sdk', 'sdkOff'),
        concurrency: remoteConcurrency,
        perSecond: remotePerSecond,
        cpuMicros: medians(remote.cpuMicros),
        latencyBound: remotePerSecond.sdkOff / ((remoteConcurrency * 1000) / REMOTE_LATENCY_MS),
      },
    };
  } finally {
    await states.shutdown();
  }
}

/** The bench's lines for every state at zero latency and for the remote withdrawals. */
export function otelTable(report: OtelOverhead): string {
  const row = (name: string, perSecond: number, ratio: number, cpu: number) =>
    `${name.padEnd(44)} ${Math.round(perSecond).toLocaleString('en').padStart(11)} ${ratio.toFixed(3).padStart(8)} ${cpu.toFixed(0).padStart(10)}\n`;
  const { perSecond, cpuMicros, remote } = report;
  return (
    `${'getTransaction at c=64, 0 ms'.padEnd(44)} ${'req/s'.padStart(11)} ${'× off'.padStart(8)} ${'µs CPU'.padStart(10)}\n` +
    row('without merchant-wallet/otel', perSecond.off, 1, cpuMicros.off) +
    row('otel enabled, no OpenTelemetry SDK', perSecond.noSdk, report.noSdkRatio, cpuMicros.noSdk) +
    row('SDK registered, otel off', perSecond.sdkOff, perSecond.sdkOff / perSecond.off, cpuMicros.sdkOff) +
    row('SDK registered, otel enabled', perSecond.sdk, report.sdkVsNothingRatio, cpuMicros.sdk) +
    `otel enabled vs off, both with the SDK registered: ${report.sdkRatio.toFixed(3)}×, ` +
    `${report.sdkCpuMicros.toFixed(1)} µs of CPU more per call\n\n` +
    `${`withdraw at c=${remote.concurrency}, sandbox process, ${REMOTE_LATENCY_MS} ms`.padEnd(44)} ${'req/s'.padStart(11)} ${'× otel off'.padStart(8)} ${'µs CPU'.padStart(10)}\n` +
    row('SDK registered, otel off', remote.perSecond.sdkOff, 1, remote.cpuMicros.sdkOff) +
    row('SDK registered, otel enabled', remote.perSecond.sdk, remote.sdkRatio, remote.cpuMicros.sdk) +
    `otel enabled vs off at ${REMOTE_LATENCY_MS} ms: ${remote.sdkRatio.toFixed(3)}×, ` +
    `${remote.sdkCpuMicros.toFixed(1)} µs of CPU more per withdrawal; ` +
    `otel off at ${(remote.latencyBound * 100).toFixed(0)} % of what the latency allows\n`
  );
}
