import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { accessSync, chownSync, constants, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { delimiter, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { createClient } from 'redis';
import { freePort } from '../nginx.js';

/** A database or cache server started for one test file. */
export interface RunningServer {
  /** Where to connect: `redis://127.0.0.1:port` or `postgres://wallet@127.0.0.1:port/postgres`. */
  readonly url: string;
  /** Stops the server and removes its directory. */
  stop(): Promise<void>;
}

export function executable(candidates: readonly string[], missing: string): string {
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here; try the next place.
    }
  }
  throw new Error(missing);
}

export function onPath(name: string, extra: readonly string[] = []): string[] {
  return [...(process.env.PATH ?? '').split(delimiter).filter(Boolean), ...extra].map((dir) =>
    join(dir, name),
  );
}

/** PostgreSQL's `name` binary (initdb, postgres, pg_ctl); a skip-worthy error naming the package when it is not installed. */
function postgresBin(name: string): string {
  let versions: string[] = [];
  try {
    versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
  } catch {
    // No Debian PostgreSQL; PATH may still have one.
  }
  return executable(
    [...versions.map((version) => `/usr/lib/postgresql/${version}/bin/${name}`), ...onPath(name)],
    `PostgreSQL's ${name} is not installed (looked in /usr/lib/postgresql/*/bin and PATH): apt-get install postgresql`,
  );
}

export async function stopChild(child: ChildProcess, dir: string): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, sleep(10_000).then(() => child.kill('SIGKILL'))]);
  }
  rmSync(dir, { recursive: true, force: true });
}

export async function waitUntil(
  ready: () => Promise<void>,
  child: ChildProcess,
  what: string,
  output: () => string,
): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}: ${output()}`);
    try {
      await ready();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`${what} did not start: ${String(error)}; ${output()}`);
      await sleep(100);
    }
  }
}

export function collect(child: ChildProcess): () => string {
  let text = '';
  child.stdout?.on('data', (chunk) => {
    text = (text + chunk).slice(-4_000);
  });
  child.stderr?.on('data', (chunk) => {
    text = (text + chunk).slice(-4_000);
  });
  return () => text;
}

/** How durable a server started here is: tests skip syncing; benchmarks measure what production pays. */
export interface ServerOptions {
  /** Redis appends every write (`appendfsync everysec`); PostgreSQL syncs each commit (`fsync` on). */
  readonly durable?: boolean;
}

/** Starts `redis-server` on a free loopback port, without persistence unless `durable`, in a temporary directory. */
export async function startRedis(options: ServerOptions = {}): Promise<RunningServer> {
  const binary = redisServerBinary();
  const dir = mkdtempSync(join(tmpdir(), 'wallet-redis-'));
  const port = await freePort();
  const child = spawn(
    binary,
    [
      ...['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', ''],
      ...(options.durable ? ['--appendonly', 'yes', '--appendfsync', 'everysec'] : ['--appendonly', 'no']),
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const output = collect(child);
  const url = `redis://127.0.0.1:${port}`;
  await waitForRedis(url, child, output);
  return { url, stop: () => stopChild(child, dir) };
}

/** The `redis-server` binary; a skip-worthy error naming the package when it is not installed. */
export function redisServerBinary(): string {
  return executable(
    onPath('redis-server', ['/usr/bin', '/usr/sbin']),
    'redis-server is not installed (looked in PATH): apt-get install redis-server',
  );
}

/** Resolves once the redis-server `child` at `url` answers a connection; fails with its output if it exits first. */
export function waitForRedis(url: string, child: ChildProcess, output: () => string): Promise<void> {
  return waitUntil(
    async () => {
      const client = await createClient({ url })
        .on('error', () => {})
        .connect();
      await client.close();
    },
    child,
    'redis-server',
    output,
  );
}

/** A command and its arguments, as `spawn` and `execFileSync` take them. */
export type Command = [command: string, args: string[]];

/**
 * How to run a PostgreSQL binary on `dir`: as this process, or, when it is root (PostgreSQL refuses to
 * run as root), as the `postgres` user (or `nobody`) through setpriv, with `dir` handed to that user.
 */
function asPostgresUser(dir: string): (command: string, args: string[]) => Command {
  if (userInfo().uid !== 0) return (command, args) => [command, args];
  const user = ['postgres', 'nobody'].find((name) => {
    try {
      execFileSync('id', ['-u', name], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  });
  if (user === undefined)
    throw new Error('running as root without a postgres or nobody user to run PostgreSQL as');
  const uid = Number(execFileSync('id', ['-u', user]).toString());
  const gid = Number(execFileSync('id', ['-g', user]).toString());
  chownSync(dir, uid, gid);
  return (command, args) => [
    'setpriv',
    [`--reuid=${uid}`, `--regid=${gid}`, '--clear-groups', '--', command, ...args],
  ];
}

/** A data directory initdb made, and the command that serves it on a free loopback port. */
export interface InitializedPostgres {
  /** The temporary directory holding the data directory and the server's socket; removed by {@link stopChild}. */
  readonly dir: string;
  /** Where the server answers once started: `postgres://wallet@127.0.0.1:port/postgres`, user `wallet`, no password. */
  readonly url: string;
  /** `postgres` on that directory, port and 127.0.0.1, with the `-c` settings given, run as {@link asPostgresUser} says. */
  readonly server: Command;
}

/**
 * Runs initdb (superuser `wallet`, trust authentication, no sync) in a new temporary directory named
 * from `name`, and picks a free port for the server; `settings` are `name=value` server settings.
 */
export async function initPostgres(name: string, settings: readonly string[]): Promise<InitializedPostgres> {
  const initdb = postgresBin('initdb');
  const postgres = postgresBin('postgres');
  const dir = mkdtempSync(join(tmpdir(), `${name}-`));
  const run = asPostgresUser(dir);
  const data = join(dir, 'data');
  const [initCommand, initArgs] = run(initdb, [
    ...['-D', data, '-U', 'wallet', '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions'],
  ]);
  execFileSync(initCommand, initArgs, { stdio: 'pipe', cwd: dir });
  const port = await freePort();
  const server = run(postgres, [
    ...['-D', data, '-p', String(port), '-k', dir],
    ...['listen_addresses=127.0.0.1', 'max_connections=200', ...settings].flatMap((setting) => [
      '-c',
      setting,
    ]),
  ]);
  return { dir, url: `postgres://wallet@127.0.0.1:${port}/postgres`, server };
}

/**
 * Runs initdb and `postgres` on a free loopback port in a temporary directory. PostgreSQL refuses to
 * run as root, so as root (CI) both run as the `postgres` user (or `nobody`) through setpriv.
 */
export async function startPostgres(options: ServerOptions = {}): Promise<RunningServer> {
  const { dir, url, server } = await initPostgres(
    'wallet-postgres',
    options.durable ? [] : ['fsync=off', 'synchronous_commit=off', 'full_page_writes=off'],
  );
  const child = spawn(...server, { stdio: ['ignore', 'pipe', 'pipe'], cwd: dir });
  await waitForPostgres(url, child, collect(child));
  return { url, stop: () => stopChild(child, dir) };
}

/** Waits until the PostgreSQL server `child` started takes a connection at `url`. */
export function waitForPostgres(url: string, child: ChildProcess, output: () => string): Promise<void> {
  return waitUntil(
    async () => {
      const client = new pg.Client({ connectionString: url });
      client.on('error', () => {});
      await client.connect();
      await client.end();
    },
    child,
    'postgres',
    output,
  );
}
