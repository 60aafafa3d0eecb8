/**
 * A redis-server that a test can kill (SIGKILL: connections reset, no goodbye) and start again on
 * the same port, or start only after the clients that use it were made.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../nginx.js';
import { collect, redisServerBinary, stopChild, waitForRedis } from './servers.js';

/** A Redis that can go down and come back on one address. */
export interface RestartableRedis {
  readonly url: string;
  /** Kills it at once (SIGKILL) and leaves it down. */
  down(): Promise<void>;
  /** Starts it (again; nothing when it runs); resolves once it answers. */
  up(): Promise<void>;
  stop(): Promise<void>;
}

/** Picks a loopback port and a directory; the server runs only once `up()` is called, unless `running`. */
export async function restartableRedis(running = true): Promise<RestartableRedis> {
  const binary = redisServerBinary();
  const dir = mkdtempSync(join(tmpdir(), 'wallet-redis-restart-'));
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const isRunning = () => child !== undefined && child.exitCode === null && child.signalCode === null;
  const up = async () => {
    if (isRunning()) return;
    const started = spawn(
      binary,
      ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = started;
    await waitForRedis(url, started, collect(started));
  };
  const down = async () => {
    const running = child;
    if (running === undefined || !isRunning()) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  if (running) await up();
  return {
    url,
    up,
    down,
    stop: async () => {
      if (child !== undefined) await stopChild(child, dir);
    },
  };
}
