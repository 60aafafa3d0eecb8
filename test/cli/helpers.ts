import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { WalletClient } from '../../src/index.js';
import {
  createSandbox,
  type Sandbox,
  type SandboxServer,
  startSandboxServer,
} from '../../src/testing/index.js';
import { type ChildRun, finished } from '../helpers/child-process.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const DEMO_KEY = 'sk_sandbox_demo_shop';
export const ALICE_TOKEN = 'tok_sandbox_alice';
/** The control key the CLI sandboxes of the tests use. */
export const CONTROL_KEY = 'sbx_test_control_key_0001';

/** What a finished CLI process left behind. */
export type CliRun = ChildRun;

/** Options of {@link runCli}. */
export interface RunOptions {
  /** Added to an environment that has no WALLET_* variable of the test runner's. */
  readonly env?: Record<string, string>;
  /** Written to the child's stdin, which is then closed. */
  readonly stdin?: string;
}

/** Starts `merchant-wallet` from source, exactly as the bin would run, minus the build. */
export function spawnCli(
  args: readonly string[],
  env: Record<string, string> = {},
): ChildProcessWithoutNullStreams {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('WALLET_')),
  );
  return spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    cwd: ROOT,
    env: { ...base, ...env },
  });
}

/** Runs `merchant-wallet <args>` to completion. */
export function runCli(args: readonly string[], options: RunOptions = {}): Promise<CliRun> {
  const child = spawnCli(args, options.env);
  const done = finished(child);
  child.stdin.end(options.stdin ?? '');
  return done;
}

/** A default-seed sandbox on a free loopback port, with a client of the demo merchant. */
export interface TestSandbox {
  readonly sandbox: Sandbox;
  readonly server: SandboxServer;
  readonly wallet: WalletClient;
  /** `WALLET_API_KEY` and `WALLET_BASE_URL` for the demo merchant. */
  readonly env: Record<string, string>;
  close(): Promise<void>;
}

export async function startTestSandbox(): Promise<TestSandbox> {
  const sandbox = createSandbox();
  const server = await startSandboxServer({ sandbox, port: 0, host: '127.0.0.1' });
  return {
    sandbox,
    server,
    wallet: new WalletClient({ apiKey: DEMO_KEY, baseUrl: server.baseUrl }),
    env: { WALLET_API_KEY: DEMO_KEY, WALLET_BASE_URL: server.baseUrl },
    close: async () => {
      sandbox.close();
      await server.close();
    },
  };
}

/** Starts `merchant-wallet sandbox` (control key {@link CONTROL_KEY}) and resolves once its banner is complete. */
export async function startCliSandbox(args: readonly string[], env: Record<string, string> = {}) {
  const child = spawnCli(['sandbox', '--port', '0', ...args], { WALLET_SANDBOX_KEY: CONTROL_KEY, ...env });
  const done = finished(child);
  let banner = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer | string) => {
      banner += String(chunk);
      if (banner.includes('Press Ctrl-C to stop.\n')) resolve();
    });
    void done.then((run) => reject(new Error(`sandbox exited early: ${run.code} ${run.stderr}`)));
  });
  const baseUrl = /^base URL {5}(http:\/\/127\.0\.0\.1:\d+)$/m.exec(banner)?.[1] ?? '';
  return { child, done, banner, baseUrl };
}
