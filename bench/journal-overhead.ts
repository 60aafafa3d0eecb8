/**
 * Journal overhead, measured the way a merchant runs it: withdrawals at concurrency 64 against the
 * sandbox in a process of its own, at 0 ms of service latency (the journal's own cost) and at 20 ms
 * (a remote service: the sandbox's latency fault on every call), and at 20 ms at concurrency 16,
 * where the baseline waits on the service rather than on this machine's two cores, so what a
 * journal adds to a payment's wait shows apart from the CPU it takes; without a journal and with each
 * journal, with and without `onSettled` (on PostgreSQL also one that writes through its settlement
 * transaction, which commits on its own), in one run side by side (rounds interleaved, medians), on
 * servers as production runs them: PostgreSQL with fsync on, Redis with `appendfsync everysec`.
 * Beside each server's journal runs its floor, `redis round trip` and `postgres round trip`: one
 * round trip to the server before each payment is sent, and nothing written there (round-trip-journal.ts).
 * Each set-up also counts the journal writes a payment makes and how many of them it waits for (in a
 * round of its own after the measured ones: the counting wrapper costs CPU a merchant's journal does
 * not, 30–50 µs a payment at 0 ms), the
 * CPU a payment costs in the bench's process and in the servers (the database, the sandbox), and the
 * median time a caller waits for a payment: at concurrency 64 on a machine of two cores the servers
 * and the bench share the CPU, so a journal's CPU per payment, not its round trips, sets its ratio.
 * Every set-up first runs an untimed warm-up round under each load (the sandbox processes and the
 * bench's own code start cold: the first round without a journal used twice the sandbox CPU of the
 * next), and every timed round starts on quiet servers (quiet-servers.ts). Each round re-warms a
 * load before its set-ups run, and starts them one set-up further along than the round before
 * (in-turn.ts).
 */
import pg from 'pg';
import { createClient } from 'redis';
import type * as Package from '../src/index.js';
import type * as Postgres from '../src/stores/postgres/index.js';
import type * as Redis from '../src/stores/redis/index.js';
import { startPostgres, startRedis } from '../test/system/stores/servers.js';
import { inTurn } from './in-turn.js';
import { countingJournal, type WritesPerPayment } from './journal-writes.js';
import { descendantCpuSeconds } from './process-cpu.js';
import { quietServers } from './quiet-servers.js';
import { roundTripJournal } from './round-trip-journal.js';
import { startSandboxProcess, stopSandboxProcess } from './sandbox-process-control.js';
import { median } from './throughput.js';

const dist = (entry: string) => new URL(`../dist/${entry}.js`, import.meta.url).href;
const { WalletClient, createMemoryJournal }: typeof Package = await import(dist('index'));
const { createPostgresJournal, migratePostgres }: typeof Postgres = await import(dist('postgres'));
const { createRedisJournal }: typeof Redis = await import(dist('redis'));

/** Payments of the round that counts each set-up's journal writes; it is not timed. */
const COUNTED_PAYMENTS = 500;
/** The share of a timed round's payments each set-up's warm-up round makes. */
const WARM_UP_SHARE = 0.25;
/** Payments of an untimed round under a load: a set-up's warm-up, or a round's re-warm. */
const warmUpPayments = ({ payments }: { payments: number }) => Math.round(payments * WARM_UP_SHARE);
/**
 * Rounds of each set-up under each load, interleaved; each figure is their median. Rounds of a second
 * or so on two shared cores put one set-up's ratio anywhere from 0.72× to 1.0× of no journal from one
 * round to the next, so each round runs about three seconds without a journal, and five are taken.
 */
export const ROUNDS = 5;
/** Service latencies the sandbox processes answer after. */
const LATENCIES = [0, 20] as const;
/**
 * The loads measured, by name: the service's latency and the payments in flight. At 0 ms a payment
 * is nothing but CPU, the journal's own cost; at 20 ms and concurrency 64 the bench's client, the
 * sandbox and the database still share two cores; at 20 ms and concurrency 16 the baseline waits on
 * the service, as a merchant's server does whose service is remote.
 */
export const LOADS = {
  '0 ms c=64': { latency: 0, concurrency: 64, payments: 12_000 },
  '20 ms c=64': { latency: 20, concurrency: 64, payments: 8_000 },
  '20 ms c=16': { latency: 20, concurrency: 16, payments: 4_000 },
} as const satisfies Record<
  string,
  { latency: (typeof LATENCIES)[number]; concurrency: number; payments: number }
>;
const JOURNALS = ['memory', 'redis', 'postgres'] as const;

type JournalName = (typeof JOURNALS)[number];
/** The name of a load of {@link LOADS}. */
export type Load = keyof typeof LOADS;

/** What one payment cost: CPU in the bench's process and in the servers (µs), and its wait (ms). */
export interface PaymentCost {
  /** CPU µs per payment in the bench's own process: the client and its journal driver. */
  readonly clientCpuUs: number;
  /** CPU µs per payment in the bench's child processes: the database server and the sandbox. */
  readonly serverCpuUs: number;
  /** The median time from calling `withdraw` to its answer, in ms. */
  readonly medianMs: number;
}

/**
 * One set-up's figures: payments per second, its ratio to no journal, its writes per payment and
 * what a payment cost.
 */
export interface SetupFigures {
  readonly perSecond: number;
  readonly ratio: number;
  readonly writes: WritesPerPayment;
  readonly cost: PaymentCost;
}

/** Every set-up's figures, by load and by name (`none`, `memory`, `memory+onSettled`, ...). */
export type JournalOverhead = Record<Load, Record<string, SetupFigures>>;

/** The ratio of `journal` (with or without `onSettled`) to no journal under `load`. */
export function overheadRatio(
  overhead: JournalOverhead,
  load: Load,
  journal: JournalName,
  settled = false,
): number {
  return overhead[load][settled ? `${journal}+onSettled` : journal]?.ratio ?? Number.NaN;
}

/** The table `onSettled(tx)` fulfils each payment in, through the settlement transaction. */
const FULFILMENTS = 'bench_fulfilments';

/** An `onSettled` that writes nothing through its settlement transaction. */
const settledNothing: Package.OnSettled = async () => {};

/** An `onSettled` that fulfils the payment through its settlement transaction: one row, exactly once. */
const fulfilInTransaction: Package.OnSettled = async (intent, status, { transaction }) => {
  await transaction?.query(`INSERT INTO ${FULFILMENTS} (reference_id, status) VALUES ($1, $2)`, [
    intent.referenceId,
    status,
  ]);
};

interface Round {
  readonly baseUrl: string;
  readonly concurrency: number;
  /** Payments a timed round makes. */
  readonly payments: number;
  readonly journal: Package.PaymentJournal | undefined;
  readonly onSettled: Package.OnSettled | undefined;
  readonly prefix: string;
}

/** Runs `payments` withdrawals through `journal`; `answered` hears each reference as its call answers. */
async function withdrawals(
  { baseUrl, concurrency, journal, onSettled, prefix }: Round,
  payments: number,
  answered: (reference: string, waitedMs: number) => void,
) {
  const wallet = new WalletClient({
    apiKey: 'sk_sandbox_demo_shop',
    baseUrl,
    maxSockets: concurrency,
    ...(journal ? { journal } : {}),
    ...(onSettled ? { onSettled } : {}),
  });
  let next = 0;
  const worker = async () => {
    while (next < payments) {
      const reference = `${prefix}-${next++}`;
      const called = performance.now();
      await wallet.withdraw({
        reference_id: reference,
        email: 'bob@example.com',
        amount: 1,
        currency: 'KES',
      });
      answered(reference, performance.now() - called);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  // Writes behind the answers still running belong to these payments' cost.
  await wallet.close();
  return seconds;
}

/** A timed round: payments per second and what a payment cost, through the journal as it is. */
async function runRound(round: Round) {
  const waits: number[] = [];
  const clientCpu = process.cpuUsage();
  const serverCpu = descendantCpuSeconds();
  const { payments } = round;
  const seconds = await withdrawals(round, payments, (_, waited) => waits.push(waited));
  const { user, system } = process.cpuUsage(clientCpu);
  const cost: PaymentCost = {
    clientCpuUs: (user + system) / payments,
    serverCpuUs: ((descendantCpuSeconds() - serverCpu) * 1e6) / payments,
    medianMs: median(waits),
  };
  return { perSecond: payments / seconds, cost };
}

/** An untimed round counting the journal writes of each payment, and how many it waited for. */
async function countWrites(round: Round): Promise<WritesPerPayment> {
  if (round.journal === undefined) return { awaited: 0, total: 0 };
  const counting = countingJournal(round.journal);
  await withdrawals({ ...round, journal: counting.journal }, COUNTED_PAYMENTS, (reference) =>
    counting.answered(reference),
  );
  return counting.tally();
}

const medianCost = (costs: readonly PaymentCost[]): PaymentCost => ({
  clientCpuUs: median(costs.map((cost) => cost.clientCpuUs)),
  serverCpuUs: median(costs.map((cost) => cost.serverCpuUs)),
  medianMs: median(costs.map((cost) => cost.medianMs)),
});

/** Measures every set-up under every load, interleaved round by round so drift hits each alike. */
export async function measureJournalOverhead(): Promise<JournalOverhead> {
  const sandboxes = await Promise.all(LATENCIES.map(startSandboxProcess));
  const postgres = await startPostgres({ durable: true });
  const redis = await startRedis({ durable: true });
  const pool = new pg.Pool({ connectionString: postgres.url, max: 16 });
  const redisClient = await createClient({ url: redis.url }).connect();
  try {
    await migratePostgres(pool);
    await pool.query(`CREATE TABLE ${FULFILMENTS} (reference_id text PRIMARY KEY, status text NOT NULL)`);
    const makers: Record<JournalName | 'none', () => Package.PaymentJournal | undefined> = {
      none: () => undefined,
      memory: () => createMemoryJournal(),
      redis: () => createRedisJournal({ client: redisClient }),
      postgres: () => createPostgresJournal({ db: pool }),
    };
    const floors: Partial<Record<JournalName, () => Package.PaymentJournal>> = {
      redis: () => roundTripJournal(createMemoryJournal(), () => redisClient.sendCommand(['PING'])),
      postgres: () => roundTripJournal(createMemoryJournal(), () => pool.query('SELECT 1')),
    };
    const noJournal = { name: 'none', make: makers.none, onSettled: undefined };
    const setups = [
      noJournal,
      ...JOURNALS.flatMap((journal) => [
        ...(floors[journal]
          ? [{ name: `${journal} round trip`, make: floors[journal], onSettled: undefined }]
          : []),
        { name: journal, make: makers[journal], onSettled: undefined },
        { name: `${journal}+onSettled`, make: makers[journal], onSettled: settledNothing },
        ...(journal === 'postgres'
          ? [{ name: `${journal}+onSettled(tx)`, make: makers[journal], onSettled: fulfilInTransaction }]
          : []),
      ]),
    ];
    const samples = new Map<string, { perSecond: number; cost: PaymentCost }[]>();
    const writes = new Map<string, WritesPerPayment>();
    const loads = Object.entries(LOADS) as [Load, (typeof LOADS)[Load]][];
    const roundOf = (load: (typeof LOADS)[Load], setup: (typeof setups)[number], round: string): Round => ({
      baseUrl: sandboxes[LATENCIES.indexOf(load.latency)]!.baseUrl,
      concurrency: load.concurrency,
      payments: load.payments,
      journal: setup.make(),
      onSettled: setup.onSettled,
      prefix: `bench-${load.latency}-${load.concurrency}-${setup.name}-${round}`,
    });
    for (const [, figures] of loads) {
      for (const setup of setups) {
        const warmUp = roundOf(figures, setup, 'warm-up');
        await withdrawals(warmUp, warmUpPayments(figures), () => {});
      }
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const [load, figures] of loads) {
        // The load's sandbox has been idle since its last round: wake it before anything is timed.
        await withdrawals(roundOf(figures, noJournal, `re-warm-${round}`), warmUpPayments(figures), () => {});
        for (const setup of inTurn(setups, round)) {
          const key = `${load}/${setup.name}`;
          await quietServers(pool, redisClient);
          const measured = await runRound(roundOf(figures, setup, String(round)));
          samples.set(key, [...(samples.get(key) ?? []), measured]);
        }
      }
    }
    for (const [load, figures] of loads) {
      for (const setup of setups)
        writes.set(`${load}/${setup.name}`, await countWrites(roundOf(figures, setup, 'counted')));
    }
    const result = {} as JournalOverhead;
    for (const [load] of loads) {
      const none = samples.get(`${load}/none`) ?? [];
      result[load] = Object.fromEntries(
        setups.map(({ name }) => {
          const rounds = samples.get(`${load}/${name}`) ?? [];
          const figures: SetupFigures = {
            perSecond: median(rounds.map((r) => r.perSecond)),
            ratio: median(rounds.map((r, n) => r.perSecond / (none[n]?.perSecond ?? 1))),
            writes: writes.get(`${load}/${name}`) ?? { awaited: 0, total: 0 },
            cost: medianCost(rounds.map((r) => r.cost)),
          };
          return [name, figures];
        }),
      );
    }
    return result;
  } finally {
    await redisClient.close();
    await pool.end();
    await redis.stop();
    await postgres.stop();
    await Promise.all(sandboxes.map(stopSandboxProcess));
  }
}

/**
 * The table of payments per second, writes per payment and what a payment cost, for the bench's
 * report. Its `CPU bound` column is the ratio the machine's CPU allows a set-up: the CPU a payment
 * costs without a journal (the bench's process and the servers together) over what it costs with
 * this one. Where the two cores are the limit (0 ms), no scheduling lifts a ratio above it; only less
 * CPU per payment, in the client or in a server, does.
 */
export function journalTable(overhead: JournalOverhead): string {
  const header = `${'load'.padEnd(12)}${'journal'.padEnd(26)}${'payments/s'.padStart(11)}${'ratio'.padStart(8)}${'CPU bound'.padStart(11)}${'writes awaited'.padStart(16)}${'writes in all'.padStart(15)}${'client µs'.padStart(11)}${'servers µs'.padStart(12)}${'median ms'.padStart(11)}\n`;
  const cpuOf = ({ cost }: SetupFigures) => cost.clientCpuUs + cost.serverCpuUs;
  const rows = (Object.keys(LOADS) as Load[]).flatMap((load) => {
    const none = overhead[load].none;
    return Object.entries(overhead[load]).map(([name, figures]) => {
      const { perSecond, ratio, writes, cost } = figures;
      const bound = none === undefined ? Number.NaN : cpuOf(none) / cpuOf(figures);
      return `${load.padEnd(12)}${name.padEnd(26)}${perSecond.toFixed(0).padStart(11)}${`${ratio.toFixed(2)}×`.padStart(8)}${`${bound.toFixed(2)}×`.padStart(11)}${writes.awaited.toFixed(2).padStart(16)}${writes.total.toFixed(2).padStart(15)}${cost.clientCpuUs.toFixed(0).padStart(11)}${cost.serverCpuUs.toFixed(0).padStart(12)}${cost.medianMs.toFixed(1).padStart(11)}\n`;
    });
  });
  return header + rows.join('');
}
