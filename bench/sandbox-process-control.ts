/** Starts and stops the sandbox in a process of its own (`sandbox-process.ts`), as the benches use it. */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** A sandbox process and the base URL it listens on. */
export interface SandboxProcess {
  readonly baseUrl: string;
  readonly child: ChildProcess;
}

/** Starts the sandbox in a child process, every request held `latencyMs` first; resolves once it listens. */
export async function startSandboxProcess(latencyMs: number): Promise<SandboxProcess> {
  const script = fileURLToPath(new URL('./sandbox-process.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script, String(latencyMs)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const [line] = (await once(lines, 'line')) as [string];
  lines.close();
  return { baseUrl: (JSON.parse(line) as { baseUrl: string }).baseUrl, child };
}

/** Closes the sandbox process's standard input, which ends it, and waits for it to exit. */
export async function stopSandboxProcess({ child }: SandboxProcess): Promise<void> {
  const exited = once(child, 'exit');
  child.stdin?.end();
  await exited;
}
