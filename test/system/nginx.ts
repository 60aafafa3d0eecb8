import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** A running nginx: one loopback port per upstream, in the same order. */
export interface RunningNginx {
  readonly urls: readonly string[];
  /** Stops nginx and removes its directory. */
  stop(): Promise<void>;
}

/** The nginx binary, from PATH or /usr/sbin; throws with the install command when absent. */
export function findNginx(): string {
  const candidates = [...(process.env.PATH ?? '').split(delimiter).filter(Boolean), '/usr/sbin'].map((dir) =>
    join(dir, 'nginx'),
  );
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here; try the next directory.
    }
  }
  throw new Error('nginx is not installed (looked in PATH and /usr/sbin): apt-get install nginx');
}

/** A port free right now on 127.0.0.1, found by binding port 0. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return address.port;
}

function config(
  dir: string,
  routes: readonly { port: number; upstream: string }[],
  readTimeout: string,
): string {
  const servers = routes.map(
    ({ port, upstream }) => `
    server {
      listen 127.0.0.1:${port};
      location / {
        proxy_pass ${upstream};
        proxy_http_version 1.1;
        proxy_set_header Connection "";
        proxy_connect_timeout 1s;
        proxy_read_timeout ${readTimeout};
        proxy_next_upstream off;
      }
    }`,
  );
  return `daemon off;
master_process off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 64; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  ${servers.join('\n')}
}
`;
}

async function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Starts nginx as a child process with a generated config in a temp dir, one
 * loopback listener per upstream, and waits until every listener accepts.
 */
export async function startNginx(upstreams: readonly string[], readTimeout = '1s'): Promise<RunningNginx> {
  const binary = findNginx();
  const dir = mkdtempSync(join(tmpdir(), 'wallet-nginx-'));
  const routes = [];
  for (const upstream of upstreams) routes.push({ port: await freePort(), upstream });
  writeFileSync(join(dir, 'nginx.conf'), config(dir, routes, readTimeout));
  const child: ChildProcess = spawn(binary, ['-c', join(dir, 'nginx.conf'), '-p', dir], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  for (let tries = 0; tries < 100; tries++) {
    if (child.exitCode !== null) break;
    const ready = await Promise.all(routes.map(({ port }) => accepts(port)));
    if (ready.every(Boolean)) return { urls: routes.map(({ port }) => `http://127.0.0.1:${port}`), stop };
    await sleep(50);
  }
  await stop();
  throw new Error(`nginx did not start: ${stderr.trim() || 'no listener accepted connections'}`);
}
