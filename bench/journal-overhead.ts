/**
 * Journal overhead, measured the way a merchant runs it: withdrawals at concurrency 64 against the
 * sandbox in a process of its own, at 0 ms of service latency (the journal's own cost) and at 20 ms
 * (a remote service: the sandbox's latency fault on every call), without a journal and with each
 * journal, with and without `onSettled`, in one run side by side (rounds interleaved, medians), on
 * servers as production runs them: PostgreSQL with fsync on, Redis with `appendfsync everysec`.
 * Each set-up also counts the journal writes a payment makes and how many of them it waits for.
 */
import pg from 'pg';
import { createClient } from 'redis';
import type * as Package from '../src/index.js';
import type * as Postgres from '../src/stores/postgres/index.js';
import type * as Redis from '../src/stores/redis/index.js';
import { startPostgres, startRedis } from '../test/system/stores/servers.js';
import { countingJournal, type WritesPerPayment } from './journal-writes.js';
import { startSandboxProcess, stopSandboxProcess } from './sandbox-process-control.js';

const dist = (entry: string) => new URL(`../dist/${entry}.js`, import.meta.url).href;
const { WalletClient, createMemoryJournal }: typeof Package = await import(dist('index'));
const { createPostgresJournal, migratePostgres }: typeof Postgres = await import(dist('postgres'));
const { createRedisJournal }: typeof Redis = await import(dist('redis'));

const PAYMENTS = 2_000;
const CONCURRENCY = 64;
const ROUNDS = 3;
/** Service latencies measured: the journal's own cost, and a remote service's round trip. */
export const LATENCIES = [0, 20] as const;
const JOURNALS = ['memory', 'redis', 'postgres'] as const;

type JournalName = (typeof JOURNALS)[number];
type Latency = (typeof LATENCIES)[number];

/** One set-up's figures: payments per second, its ratio to no journal, and its writes per payment. */
export interface SetupFigures {
  readonly perSecond: number;
  readonly ratio: number;
  readonly writes: WritesPerPayment;
}

/** Every set-up's figures, by latency and by name (`none`, `memory`, `memory+onSettled`, ...). */
export type JournalOverhead = Record<Latency, Record<string, SetupFigures>>;

/** The ratio of `journal` (with or without `onSettled`) to no journal at `latency`. */
export function overheadRatio(
  overhead: JournalOverhead,
  latency: Latency,
  journal: JournalName,
  settled = false,
): number {
  return overhead[latency][settled ? `${journal}+onSettled` : journal]?.ratio ?? Number.NaN;
}

interface Round {
  readonly baseUrl: string;
  readonly journal: Package.PaymentJournal | undefined;
  readonly settled: boolean;
  readonly prefix: string;
}

async function runRound({ baseUrl, journal, settled, prefix }: Round) {
  const counting = journal && countingJournal(journal);
  const wallet = new WalletClient({
    apiKey: 'sk_sandbox_demo_shop',
    baseUrl,
    maxSockets: CONCURRENCY,
    ...(counting ? { journal: counting.journal } : {}),
    ...(settled ? { onSettled: async () => {} } : {}),
  });
  let next = 0;
  const worker = async () => {
    while (next < PAYMENTS) {
      const reference = `${prefix}-${next++}`;
      await wallet.withdraw({
        reference_id: reference,
        email: 'bob@example.com',
        amount: 1,
        currency: 'KES',
      });
      counting?.answered(reference);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const perSecond = PAYMENTS / ((performance.now() - started) / 1000);
  await wallet.close();
  return { perSecond, writes: counting?.tally() ?? { awaited: 0, total: 0 } };
}

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** Measures every set-up at every latency, interleaved round by round so drift hits each alike. */
export async function measureJournalOverhead(): Promise<JournalOverhead> {
  const sandboxes = await Promise.all(LATENCIES.map(startSandboxProcess));
  const postgres = await startPostgres({ durable: true });
  const redis = await startRedis({ durable: true });
  const pool = new pg.Pool({ connectionString: postgres.url, max: 16 });
  const redisClient = await createClient({ url: redis.url }).connect();
  try {
    await migratePostgres(pool);
    const makers: Record<JournalName | 'none', () => Package.PaymentJournal | undefined> = {
      none: () => undefined,
      memory: () => createMemoryJournal(),
      redis: () => createRedisJournal({ client: redisClient }),
      postgres: () => createPostgresJournal({ db: pool }),
    };
    const setups = [
      { name: 'none', make: makers.none, settled: false },
      ...JOURNALS.flatMap((journal) => [
        { name: journal, make: makers[journal], settled: false },
        { name: `${journal}+onSettled`, make: makers[journal], settled: true },
      ]),
    ];
    const samples = new Map<string, { perSecond: number; writes: WritesPerPayment }[]>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const [index, latency] of LATENCIES.entries()) {
        for (const setup of setups) {
          const key = `${latency}/${setup.name}`;
          const figures = await runRound({
            baseUrl: sandboxes[index]!.baseUrl,
            journal: setup.make(),
            settled: setup.settled,
            prefix: `bench-${latency}-${setup.name}-${round}`,
          });
          samples.set(key, [...(samples.get(key) ?? []), figures]);
        }
      }
    }
    const result = {} as JournalOverhead;
    for (const latency of LATENCIES) {
      const none = samples.get(`${latency}/none`) ?? [];
      result[latency] = Object.fromEntries(
        setups.map(({ name }) => {
          const rounds = samples.get(`${latency}/${name}`) ?? [];
          const figures: SetupFigures = {
            perSecond: median(rounds.map((r) => r.perSecond)),
            ratio: median(rounds.map((r, n) => r.perSecond / (none[n]?.perSecond ?? 1))),
            writes: rounds.at(-1)?.writes ?? { awaited: 0, total: 0 },
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

/** The table of payments per second and writes per payment, for the bench's report. */
export function journalTable(overhead: JournalOverhead): string {
  const header = `${'latency'.padEnd(9)}${'journal'.padEnd(22)}${'payments/s'.padStart(11)}${'ratio'.padStart(8)}${'writes awaited'.padStart(16)}${'writes in all'.padStart(15)}\n`;
  const rows = LATENCIES.flatMap((latency) =>
    Object.entries(overhead[latency]).map(
      ([name, { perSecond, ratio, writes }]) =>
        `${`${latency} ms`.padEnd(9)}${name.padEnd(22)}${perSecond.toFixed(0).padStart(11)}${`${ratio.toFixed(2)}×`.padStart(8)}${writes.awaited.toFixed(2).padStart(16)}${writes.total.toFixed(2).padStart(15)}\n`,
    ),
  );
  return header + rows.join('');
}
