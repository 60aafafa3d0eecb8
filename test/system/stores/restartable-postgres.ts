/**
 * A PostgreSQL server that a test can restart as a crash does (`pg_ctl restart -m immediate`: the
 * postmaster gets SIGQUIT, every backend dies at once, the next start runs crash recovery), on the
 * same port and data directory.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll } from 'vitest';
import { type ServedSandbox, useSandboxServer } from '../sandbox-server.js';
import { started } from '../started.js';
import { collect, initPostgres, stopChild, waitForPostgres } from './servers.js';

/** A running server, its URL, and how to crash-restart or stop it. */
export interface RestartablePostgres {
  readonly url: string;
  /** Stops it at once (SIGQUIT, as `-m immediate`), then starts it again; resolves once it answers. */
  restart(): Promise<void>;
  /** Stops it at once, as `restart` does, and leaves it down. */
  down(): Promise<void>;
  /** Starts it again after `down()`; resolves once it answers. */
  up(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts a restartable PostgreSQL on a free loopback port, in a temporary directory; `durable`
 * syncs each commit (fsync on), as production pays for.
 */
export async function startRestartablePostgres(
  options: { durable?: boolean } = {},
): Promise<RestartablePostgres> {
  const { dir, url, server } = await initPostgres(
    'wallet-postgres-restart',
    options.durable ? [] : ['fsync=off'],
  );
  let child: ChildProcess;
  const start = async () => {
    child = spawn(...server, { stdio: ['ignore', 'pipe', 'pipe'], cwd: dir });
    const output = collect(child);
    await waitForPostgres(url, child, output);
  };
  await start();
  const down = async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGQUIT');
    await exited;
  };
  return {
    url,
    async restart() {
      await down();
      await start();
    },
    down,
    up: start,
    stop: () => stopChild(child, dir),
  };
}

/** What {@link useRestartablePostgresAndSandbox} runs for a test file. */
export interface RestartablePostgresAndSandbox extends ServedSandbox {
  /** The database; started in `beforeAll`, so read it in tests and hooks only. */
  readonly postgres: RestartablePostgres;
}

/**
 * For the file that calls it: a restartable PostgreSQL and a sandbox served over HTTP, started before
 * its tests and stopped after them.
 */
export function useRestartablePostgresAndSandbox(): RestartablePostgresAndSandbox {
  let postgres: RestartablePostgres | undefined;
  beforeAll(async () => {
    postgres = await startRestartablePostgres();
  });
  afterAll(async () => {
    await postgres?.stop();
  });
  // Registered after the database's hooks: the sandbox is closed before the database stops.
  const served = useSandboxServer();
  return {
    sandbox: served.sandbox,
    get baseUrl() {
      return served.baseUrl;
    },
    get postgres() {
      return started('useRestartablePostgresAndSandbox', 'postgres', postgres);
    },
  };
}
