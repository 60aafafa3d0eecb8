import type { ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';

/** What a finished child process left behind. */
export interface ChildRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A child process whose stdout and stderr are pipes, whatever its stdin is. */
export type PipedChild = ChildProcess & { readonly stdout: Readable; readonly stderr: Readable };

/** Collects a child's output until it exits. */
export function finished(child: PipedChild): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The step labels of the demo transcript, in order, after its title line. */
export const DEMO_STEPS = [
  'sandbox',
  'merchant',
  'webhooks',
  'login URL',
  'user approves',
  'token received',
  'providers',
  'deposit',
  'deposit',
  'waited',
  'webhook',
  'withdrawal',
  'status',
  'handled error',
  'money',
  'done',
] as const;
