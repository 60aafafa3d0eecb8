/** The child processes of the durable-execution soaks: started with tsx, killed with SIGKILL. */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** Every child still running: killed when this process exits, so a soak cut short leaves none behind. */
const alive = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of alive) child.kill('SIGKILL');
});

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts a tsx process from the repository root (merchant-wallet resolves to src/ there); resolves with its first `ready` line. */
export function startProcess(script: string, env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: root,
    env: { ...process.env, ...env, RESTATE_LOGGING: 'ERROR' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  alive.add(child);
  child.once('exit', () => alive.delete(child));
  let output = '';
  const ready = new Promise<string>((resolve, reject) => {
    const take = (chunk: Buffer) => {
      output = (output + chunk).slice(-4_000);
      const line = /^ready.*$/m.exec(output);
      if (line) resolve(line[0]);
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', (chunk: Buffer) => {
      output = (output + chunk).slice(-4_000);
    });
    child.once('exit', (code, signal) =>
      reject(new Error(`${script} exited (${code ?? signal}): ${output}`)),
    );
  });
  ready.catch(() => {});
  // SOAK_DEBUG=1 shows what the processes print.
  if (process.env.SOAK_DEBUG) {
    const name = script.split('/').pop();
    for (const stream of [child.stdout, child.stderr])
      stream?.on('data', (chunk: Buffer) => process.stderr.write(`[${name}] ${chunk}`));
  }
  return { child, ready };
}

/** SIGKILLs `child` unless it has exited; resolves once it has. */
export async function kill(child: ChildProcess | undefined): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}
