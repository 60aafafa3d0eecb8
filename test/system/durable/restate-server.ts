/**
 * The real Restate server, from the `@restatedev/restate-server` npm package (a binary shipped inside
 * the package for each platform), on 127.0.0.1 with ports found free, in a directory of its own.
 * Telemetry is off; the invocation retry policy is tightened to a second so a killed service is
 * re-invoked soon after it is back.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { arch, platform, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../nginx.js';
import { collect, stopChild, waitUntil } from '../stores/servers.js';

/** A running Restate server. */
export interface RestateServer {
  /** The ingress, where services are called and awakeables completed: `http://127.0.0.1:port/`. */
  readonly ingressUrl: string;
  /** The admin API, where deployments are registered. */
  readonly adminUrl: string;
  /** Registers the service endpoint at `uri` (it must be listening) and waits until it is usable. */
  register(uri: string): Promise<void>;
  /** Stops the server and removes its directory. */
  stop(): Promise<void>;
}

/** The binary of this platform inside node_modules, or an error saying which package is missing. */
export function restateBinary(): string {
  const name = `@restatedev/restate-server-${platform()}-${arch()}`;
  try {
    return createRequire(import.meta.url).resolve(`${name}/bin/restate-server`);
  } catch {
    throw new Error(
      `${name} is not installed: run npm ci (it is an optional dependency of @restatedev/restate-server)`,
    );
  }
}

const CONFIG = `disable-telemetry = true
default-num-partitions = 2
rocksdb-total-memory-size = "256 MiB"
log-filter = "error"

[default-retry-policy]
initial-interval = "100ms"
exponentiation-factor = 2.0
max-interval = "1s"
max-attempts = 100000
on-max-attempts = "pause"
`;

/** Starts the server; it answers on both APIs before this resolves. */
export async function startRestate(): Promise<RestateServer> {
  const binary = restateBinary();
  const dir = mkdtempSync(join(tmpdir(), 'wallet-restate-'));
  writeFileSync(join(dir, 'restate.toml'), CONFIG);
  const [ingress, admin, node] = [await freePort(), await freePort(), await freePort()];
  const child: ChildProcess = spawn(binary, ['--config-file', join(dir, 'restate.toml'), '--no-logo'], {
    env: {
      PATH: process.env.PATH,
      DO_NOT_TRACK: '1',
      RESTATE_BASE_DIR: join(dir, 'data'),
      RESTATE_LISTEN_MODE: 'tcp',
      RESTATE_INGRESS__BIND_ADDRESS: `127.0.0.1:${ingress}`,
      RESTATE_ADMIN__BIND_ADDRESS: `127.0.0.1:${admin}`,
      RESTATE_BIND_ADDRESS: `127.0.0.1:${node}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = collect(child);
  const ingressUrl = `http://127.0.0.1:${ingress}/`;
  const adminUrl = `http://127.0.0.1:${admin}/`;
  const answers = async (url: string) => {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await response.body?.cancel();
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  };
  try {
    await waitUntil(() => answers(`${adminUrl}health`), child, 'restate-server', output);
    await waitUntil(() => answers(`${ingressUrl}restate/health`), child, 'restate-server', output);
  } catch (error) {
    await stopChild(child, dir);
    throw error;
  }
  return {
    ingressUrl,
    adminUrl,
    async register(uri) {
      const response = await fetch(`${adminUrl}deployments`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ uri, force: true }),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`registering ${uri} answered ${response.status}: ${text}`);
    },
    stop: () => stopChild(child, dir),
  };
}
