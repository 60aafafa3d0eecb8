/**
 * A journal write on a connection whose server stops answering (its backend stopped with SIGSTOP, as
 * a half-open socket after a failover or a partition would leave it) fails once its statement bound
 * and the answer margin have passed; its connection is destroyed, not returned to the pool, and the
 * journal's next writes go on over a fresh one. Without the client's own bound the write, and every
 * write grouped behind it, would wait as long as the socket lives.
 */
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ANSWER_MARGIN_MS } from '../../../src/stores/postgres/bounded-transaction.js';
import { createPostgresJournal, migratePostgres } from '../../../src/stores/postgres/index.js';
import { type RunningServer, startPostgres } from './servers.js';

let server: RunningServer;
/** Backends this file stopped: woken again however the test ends, so the server can stop. */
const stopped: number[] = [];
const wake = () => {
  for (const pid of stopped.splice(0)) process.kill(pid, 'SIGCONT');
};

beforeAll(async () => {
  server = await startPostgres();
});

afterAll(async () => {
  wake();
  await server?.stop();
});

/** The server processes of the connections named `name`. */
async function backendsOf(name: string): Promise<number[]> {
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE application_name = $1',
      [name],
    );
    return rows.map((row) => row.pid);
  } finally {
    await admin.end();
  }
}

test('a write on a connection that stops answering fails after its bound, and the next write goes on over a fresh connection', async () => {
  const name = 'silent-journal';
  const pool = new pg.Pool({ connectionString: server.url, max: 2, application_name: name });
  pool.on('error', () => {});
  await migratePostgres(pool, { journalTable: 'silent_journal', dedupeTable: 'silent_dedupe' });
  const statementMs = 300;
  const journal = createPostgresJournal({
    db: pool,
    table: 'silent_journal',
    transactionTimeouts: { statementMs },
  });
  await journal.record({ referenceId: 'warm', endpoint: 'withdraw', body: {} });
  const stopped = await backendsOf(name);
  expect(stopped).toHaveLength(1);
  for (const pid of stopped) process.kill(pid, 'SIGSTOP');
  try {
    const started = performance.now();
    const error = await journal
      .record({ referenceId: 'stalled', endpoint: 'withdraw', body: {} })
      .catch((caught: unknown) => caught);
    expect((error as Error).message).toMatch(/did not answer a journal statement within/);
    expect(performance.now() - started).toBeGreaterThanOrEqual(statementMs + ANSWER_MARGIN_MS - 50);
    // The silent connection left the pool: none of the pool's connections is the stopped one.
    expect(pool.totalCount).toBe(0);
  } finally {
    for (const pid of stopped) process.kill(pid, 'SIGCONT');
  }
  await expect(
    journal.record({ referenceId: 'after', endpoint: 'withdraw', body: {} }),
  ).resolves.toMatchObject({
    referenceId: 'after',
    state: 'sending',
  });
  expect(await backendsOf(name)).not.toContain(stopped[0]);
  await pool.end();
}, 30_000);
