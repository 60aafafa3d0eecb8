/**
 * Where a journaled payment's time goes on PostgreSQL and Redis: `node --import tsx
 * bench/journal-profile.ts [latency ms] [payments]`. Withdrawals at concurrency 64 against the sandbox in its
 * own process; the journal's pool and client are wrapped to time each statement and count those in
 * flight and the writes each carried, and each journal call is timed from call to answer.
 */

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createClient } from 'redis';
import { createMemoryJournal, type PaymentJournal, WalletClient } from '../src/index.js';
import { createPostgresJournal, migratePostgres } from '../src/stores/postgres/index.js';
import { createRedisJournal } from '../src/stores/redis/index.js';
import { startPostgres, startRedis } from '../test/system/stores/servers.js';
import { descendantCpu } from './process-cpu.js';

const latency = Number(process.argv[2] ?? 20);
const PAYMENTS = Number(process.argv[3] ?? 3_000);
const CONCURRENCY = 64;

const script = fileURLToPath(new URL('./sandbox-process.ts', import.meta.url));
const child = spawn(process.execPath, ['--import', 'tsx', script, String(latency)], {
  stdio: ['pipe', 'pipe', 'inherit'],
});
const lines = createInterface({ input: child.stdout! });
const [line] = (await once(lines, 'line')) as [string];
lines.close();
const { baseUrl } = JSON.parse(line) as { baseUrl: string };

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
};
const summary = (values: number[]) =>
  `n=${values.length} mean=${(values.reduce((a, b) => a + b, 0) / Math.max(values.length, 1)).toFixed(2)} p50=${pct(values, 0.5).toFixed(2)} p90=${pct(values, 0.9).toFixed(2)} p99=${pct(values, 0.99).toFixed(2)}`;

function timedJournal(journal: PaymentJournal, times: Map<string, number[]>): PaymentJournal {
  return new Proxy(journal, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      return async (...args: unknown[]) => {
        const started = performance.now();
        try {
          return await value.apply(target, args);
        } finally {
          times.set(property, [...(times.get(property) ?? []), performance.now() - started]);
        }
      };
    },
  });
}

async function walSyncs(): Promise<number> {
  const { rows } = await pool.query('SELECT wal_sync::float8 AS syncs FROM pg_stat_wal');
  return Number((rows[0] as { syncs: number }).syncs);
}

async function run(name: string, journal: PaymentJournal | undefined, settled: boolean) {
  const times = new Map<string, number[]>();
  const wallet = new WalletClient({
    apiKey: 'sk_sandbox_demo_shop',
    baseUrl,
    maxSockets: CONCURRENCY,
    ...(journal ? { journal: timedJournal(journal, times) } : {}),
    ...(settled ? { onSettled: async () => {} } : {}),
  });
  const calls: number[] = [];
  let next = 0;
  const cpu = process.cpuUsage();
  const servers = descendantCpu();
  const syncs = await walSyncs();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < PAYMENTS) {
        const reference = `prof-${name}-${latency}-${Date.now()}-${next++}`;
        const at = performance.now();
        await wallet.withdraw({
          reference_id: reference,
          email: 'bob@example.com',
          amount: 1,
          currency: 'KES',
        });
        calls.push(performance.now() - at);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  await wallet.close();
  const serversAfter = descendantCpu();
  const serverMs = [...serversAfter]
    .map(
      ([comm, seconds]) => `${comm} ${(((seconds - (servers.get(comm) ?? 0)) * 1000) / PAYMENTS).toFixed(3)}`,
    )
    .join(', ');
  process.stdout.write(
    `\n${name}: server CPU ms/payment: ${serverMs}; WAL syncs/payment ${((await walSyncs()) - syncs) / PAYMENTS}`,
  );
  process.stdout.write(
    `\n${name}: ${(PAYMENTS / seconds).toFixed(0)} payments/s, client CPU ${((used.user + used.system) / 1000 / PAYMENTS).toFixed(3)} ms/payment; call ms ${summary(calls)}\n`,
  );
  for (const [method, values] of times)
    process.stdout.write(`  ${method.padEnd(20)} ms ${summary(values)}\n`);
}

const postgres = await startPostgres({ durable: true });
const redis = await startRedis({ durable: true });
const pool = new pg.Pool({ connectionString: postgres.url, max: 16 });
const statements: { ms: number; rows: number; inFlight: number; sql: string }[] = [];
let inFlight = 0;
// Every promised statement on every connection of the pool (group commit runs on checked-out
// clients); `pool.query` passes a callback, and those go through untimed.
const clientQuery = pg.Client.prototype.query as (...args: unknown[]) => unknown;
(pg.Client.prototype as unknown as { query: typeof clientQuery }).query = function (
  this: pg.Client,
  ...args: unknown[]
) {
  const result = clientQuery.apply(this, args);
  if (!(result instanceof Promise) || typeof args[0] !== 'string') return result;
  const values = args[1] as unknown[] | undefined;
  inFlight += 1;
  const at = performance.now();
  const rows = Array.isArray(values?.[0]) ? (values[0] as unknown[]).length : 1;
  const flying = inFlight;
  return result.finally(() => {
    inFlight -= 1;
    statements.push({
      ms: performance.now() - at,
      rows,
      inFlight: flying,
      sql: (args[0] as string).slice(0, 40).replace(/\s+/g, ' '),
    });
  });
};
const redisClient = await createClient({ url: redis.url }).connect();
await migratePostgres(pool);
try {
  await run('none', undefined, false);
  await run('memory', createMemoryJournal(), false);
  await run('redis', createRedisJournal({ client: redisClient }), false);
  statements.length = 0;
  await run('postgres', createPostgresJournal({ db: pool }), false);
  const byKind = new Map<string, typeof statements>();
  for (const s of statements) byKind.set(s.sql, [...(byKind.get(s.sql) ?? []), s]);
  for (const [sql, list] of byKind)
    process.stdout.write(
      `  statement "${sql}": ${list.length}, ms ${summary(list.map((s) => s.ms))}; writes each ${summary(list.map((s) => s.rows))}; in flight ${summary(list.map((s) => s.inFlight))}\n`,
    );
  statements.length = 0;
  await run('postgres+onSettled', createPostgresJournal({ db: pool }), true);
} finally {
  await redisClient.close();
  await pool.end();
  await redis.stop();
  await postgres.stop();
  child.stdin?.end();
}
