import { spawn } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { finished } from '../helpers/child-process.js';

export const ROOT = resolve(import.meta.dirname, '../..');
const RUNTIMES_DIR = join(ROOT, 'test/runtimes');
const SMOKE_DIR = join(RUNTIMES_DIR, 'smoke');
const INSTALL_HINT = 'install the runtimes with "npm ci --prefix test/runtimes" (.ci/run does this)';

/** One way of running the smoke scripts: a binary, its arguments, and the version it must report. */
export interface Runtime {
  readonly label: string;
  readonly name: 'node' | 'bun' | 'deno';
  readonly binary: string;
  readonly args: readonly string[];
  readonly version: string;
}

/** The version of a package installed in test/runtimes, which is what its binary must report. */
function installedVersion(pkg: string): string {
  const file = join(RUNTIMES_DIR, 'node_modules', pkg, 'package.json');
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  } catch {
    throw new Error(`${file} is missing: ${INSTALL_HINT}`);
  }
}

function executable(path: string): string {
  try {
    accessSync(path, constants.X_OK);
    return path;
  } catch {
    throw new Error(`${path} is missing or not executable: ${INSTALL_HINT}`);
  }
}

const bin = (relative: string) => join(RUNTIMES_DIR, 'node_modules', relative);

/** Every runtime the docs claim, each resolved lazily so a missing one fails only its own tests. */
export const RUNTIMES: Record<string, () => Runtime> = {
  'node 20': () => ({
    label: 'node 20',
    name: 'node',
    binary: process.execPath,
    args: [],
    version: process.versions.node,
  }),
  'node 22': () => ({
    label: 'node 22',
    name: 'node',
    binary: executable(bin('node22/bin/node')),
    args: [],
    version: installedVersion('node22'),
  }),
  'node 24': () => ({
    label: 'node 24',
    name: 'node',
    binary: executable(bin('node24/bin/node')),
    args: [],
    version: installedVersion('node24'),
  }),
  bun: () => ({
    label: 'bun',
    name: 'bun',
    binary: executable(bin('.bin/bun')),
    args: ['run'],
    version: installedVersion('bun'),
  }),
  deno: () => ({
    label: 'deno',
    name: 'deno',
    binary: executable(bin('.bin/deno')),
    // Network to the loopback sandbox only; reads for dist/ and node_modules; env for the sandbox URL.
    args: ['run', '--allow-net=127.0.0.1', '--allow-read', '--allow-env', '--no-prompt'],
    version: installedVersion('deno'),
  }),
};

export interface SmokeRun {
  readonly result: Record<string, unknown>;
  readonly ms: number;
}

/**
 * Runs a script of test/runtimes/smoke in `runtime` from the repository root and parses the
 * one JSON line it prints. Fails with the process's output on a non-zero exit or a timeout.
 */
export async function runSmoke(
  runtime: Runtime,
  script: string,
  env: Record<string, string>,
  timeoutMs = 20_000,
): Promise<SmokeRun> {
  const started = performance.now();
  const child = spawn(runtime.binary, [...runtime.args, join(SMOKE_DIR, script)], {
    cwd: ROOT,
    // A small, fixed environment: vitest's own NODE_OPTIONS and the like must not reach the runtime.
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/tmp',
      NO_COLOR: '1',
      DENO_NO_UPDATE_CHECK: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, timeoutMs);
  const { code, stdout, stderr } = await finished(child).finally(() => clearTimeout(timer));
  if (timedOut) throw new Error(`${runtime.label} ${script} ran over ${timeoutMs} ms\n${stdout}\n${stderr}`);
  const ms = Math.round(performance.now() - started);
  const lines = stdout.trim().split('\n');
  if (code !== 0 || lines.length !== 1) {
    throw new Error(`${runtime.label} ${script} exited ${code}\nstdout: ${stdout}\nstderr: ${stderr}`);
  }
  return { result: JSON.parse(lines[0] as string) as Record<string, unknown>, ms };
}
