/**
 * Quiets the bench's database servers before a timed round, so the background work one round leaves
 * (a checkpoint of the writes it made, an autovacuum of the rows it updated, an AOF rewrite its
 * writes set off) is not paid by whichever set-up's round comes next. At concurrency 64 on a
 * machine of two cores, such work landing in the round without a journal, the one every ratio is
 * read against, moved a whole load's ratios at once.
 */
import { setTimeout as pause } from 'node:timers/promises';
import type pg from 'pg';
import type { createClient } from 'redis';

/** How often a wait below looks again. */
const POLL_MS = 50;

/** Whether PostgreSQL runs an autovacuum worker now. */
async function vacuuming(pool: pg.Pool): Promise<boolean> {
  const { rows } = await pool.query(
    `SELECT count(*)::int AS workers FROM pg_stat_activity WHERE backend_type = 'autovacuum worker'`,
  );
  return (rows[0] as { workers: number }).workers > 0;
}

/** Whether Redis rewrites its append-only file or saves a snapshot now. */
async function rewriting(redis: ReturnType<typeof createClient>): Promise<boolean> {
  const info = String(await redis.sendCommand(['INFO', 'persistence']));
  return /^(aof_rewrite_in_progress|rdb_bgsave_in_progress):1/m.test(info);
}

/**
 * Writes PostgreSQL's dirty pages out now (`CHECKPOINT`), then waits until no autovacuum worker and
 * no Redis rewrite runs, for at most `maxWaitMs`.
 */
export async function quietServers(
  pool: pg.Pool,
  redis: ReturnType<typeof createClient>,
  maxWaitMs = 30_000,
): Promise<void> {
  await pool.query('CHECKPOINT');
  const until = performance.now() + maxWaitMs;
  while (performance.now() < until && ((await vacuuming(pool)) || (await rewriting(redis))))
    await pause(POLL_MS);
}
