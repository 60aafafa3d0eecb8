import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { createClient } from 'redis';
import { freePort } from '../nginx.js';
import { collect, executable, onPath, stopChild, waitUntil } from './servers.js';

/** One master of a {@link RunningCluster}. */
export interface ClusterNode {
  /** Its client port on 127.0.0.1. */
  readonly port: number;
  /** Kills it with SIGKILL, as a crash would, and waits until it is gone. */
  kill(): Promise<void>;
  /** Starts it again on the same port with the same directory (nodes.conf and append-only file). */
  restart(): Promise<void>;
}

/** Three Redis Cluster masters on loopback, started for one test file. */
export interface RunningCluster {
  /** The masters, in the order they were given slots. */
  readonly nodes: readonly ClusterNode[];
  /** Where to connect: one URL per master. */
  readonly urls: readonly string[];
  /** The master holding `key`'s slot now. */
  nodeFor(key: string): Promise<ClusterNode>;
  /** Resolves once every live master reports `cluster_state:ok`. */
  waitForOk(): Promise<void>;
  /** Stops every master and removes the directory. */
  stop(): Promise<void>;
}

const run = promisify(execFile);

async function nodeInfo(port: number, ...command: string[]): Promise<string> {
  const client = await createClient({ url: `redis://127.0.0.1:${port}` })
    .on('error', () => {})
    .connect();
  try {
    return String(await client.sendCommand(command));
  } finally {
    client.destroy();
  }
}

/**
 * Starts three `redis-server --cluster-enabled yes` masters on free loopback ports (cluster bus ports
 * too, since port + 10000 may not exist) with append-only files, joins them with `redis-cli --cluster
 * create`, and waits for `cluster_state:ok`. Each server runs under `setpriv --pdeathsig KILL` where
 * available, so it dies with the test process even when that process is killed.
 */
export async function startRedisCluster(): Promise<RunningCluster> {
  const server = executable(
    onPath('redis-server', ['/usr/bin']),
    'redis-server is not installed: apt-get install redis-server',
  );
  const cli = executable(
    onPath('redis-cli', ['/usr/bin']),
    'redis-cli is not installed: apt-get install redis-tools',
  );
  let setpriv: string | undefined;
  try {
    setpriv = executable(onPath('setpriv', ['/usr/bin']), 'no setpriv');
  } catch {
    setpriv = undefined;
  }
  const dir = mkdtempSync(join(tmpdir(), 'wallet-redis-cluster-'));
  const ports = [await freePort(), await freePort(), await freePort()];
  const children = new Map<number, ChildProcess>();
  const launch = async (port: number, bus: number) => {
    const home = join(dir, String(port));
    mkdirSync(home, { recursive: true });
    const args = [
      ...['--port', String(port), '--cluster-port', String(bus), '--bind', '127.0.0.1', '--dir', home],
      ...[
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        'nodes.conf',
        '--cluster-node-timeout',
        '1000',
      ],
      ...['--appendonly', 'yes', '--appendfsync', 'everysec', '--save', ''],
    ];
    const child =
      setpriv === undefined
        ? spawn(server, args, { stdio: ['ignore', 'pipe', 'pipe'] })
        : spawn(setpriv, ['--pdeathsig', 'KILL', '--', server, ...args], {
            stdio: ['ignore', 'pipe', 'pipe'],
          });
    children.set(port, child);
    await waitUntil(
      async () => void (await nodeInfo(port, 'PING')),
      child,
      `redis-server :${port}`,
      collect(child),
    );
  };
  const buses = [await freePort(), await freePort(), await freePort()];
  await Promise.all(ports.map((port, n) => launch(port, buses[n] as number)));
  const alive = new Set(ports);
  const nodes: ClusterNode[] = ports.map((port, n) => ({
    port,
    async kill() {
      const child = children.get(port) as ChildProcess;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      alive.delete(port);
    },
    async restart() {
      await launch(port, buses[n] as number);
      alive.add(port);
    },
  }));
  const waitForOk = async () => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const states = await Promise.all(
        [...alive].map((port) => nodeInfo(port, 'CLUSTER', 'INFO').catch(() => '')),
      );
      if (states.every((state) => state.includes('cluster_state:ok'))) return;
      if (Date.now() > deadline) throw new Error(`the cluster did not reach state ok: ${states.join(' | ')}`);
      await sleep(100);
    }
  };
  await run(cli, [
    '--cluster',
    'create',
    ...ports.map((port) => `127.0.0.1:${port}`),
    '--cluster-replicas',
    '0',
    '--cluster-yes',
  ]);
  await waitForOk();
  return {
    nodes,
    urls: ports.map((port) => `redis://127.0.0.1:${port}`),
    async nodeFor(key) {
      const slot = Number(await nodeInfo([...alive][0] as number, 'CLUSTER', 'KEYSLOT', key));
      const owner = (await slotsOf([...alive][0] as number)).find(
        ([from, to]) => slot >= from && slot <= to,
      )?.[2];
      const node = nodes.find(({ port }) => port === owner);
      if (node === undefined) throw new Error(`no master holds slot ${slot}`);
      return node;
    },
    waitForOk,
    async stop() {
      await Promise.all([...children.values()].map((child) => stopChild(child, join(dir, 'none'))));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** [first slot, last slot, master port] per range, from CLUSTER SLOTS. */
async function slotsOf(port: number): Promise<[number, number, number][]> {
  const client = await createClient({ url: `redis://127.0.0.1:${port}` })
    .on('error', () => {})
    .connect();
  try {
    const reply = (await client.sendCommand(['CLUSTER', 'SLOTS'])) as [number, number, [string, number]][];
    return reply.map(([from, to, [, owner]]) => [Number(from), Number(to), Number(owner)]);
  } finally {
    client.destroy();
  }
}
