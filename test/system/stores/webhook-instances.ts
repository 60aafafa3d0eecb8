/** Starting and talking to webhook instance processes (webhook-instance.ts) in the store system tests. */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const instanceScript = fileURLToPath(new URL('./webhook-instance.ts', import.meta.url));

/** A webhook instance process, its port and what it printed. */
export interface Instance {
  readonly child: ChildProcess;
  readonly port: number;
  readonly output: () => string;
}

/** Starts an instance with `env` (its store's URL among it) and resolves once it listens. */
export function startInstance(env: Record<string, string>): Promise<Instance> {
  const child = spawn(process.execPath, ['--import', 'tsx', instanceScript], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stderr?.on('data', (chunk) => {
    text += chunk;
  });
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk) => {
      text += chunk;
      const port = /port (\d+)/.exec(text)?.[1];
      if (port !== undefined) resolve({ child, port: Number(port), output: () => text });
    });
    child.once('exit', (code, signal) => reject(new Error(`instance exited ${code ?? signal}: ${text}`)));
  });
}

/** Posts `event` as a webhook delivery to `instance`. */
export function postEvent(instance: Instance, event: object): Promise<Response> {
  return fetch(`http://127.0.0.1:${instance.port}/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(event),
  });
}
