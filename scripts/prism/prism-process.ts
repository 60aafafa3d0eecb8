import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';

/** A Prism server this script started, and everything it logged. */
export interface PrismProcess {
  readonly url: string;
  /** Prism's log so far, as text without colours. */
  log(): string;
  stop(): Promise<void>;
}

/** A port that was free a moment ago (Prism takes a port number, not 0). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts `prism <args>` on a free loopback port and resolves once it listens; rejects with its log
 * when it exits first or does not listen within `startMs`.
 */
export async function startPrism(args: readonly string[], startMs = 60_000): Promise<PrismProcess> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    ['node_modules/@stoplight/prism-cli/dist/index.js', ...args, '-h', '127.0.0.1', '-p', String(port)],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } },
  );
  let text = '';
  const append = (chunk: Buffer) => {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removes terminal colour codes.
    text += chunk.toString('utf8').replace(/\x1b\[[0-9;]*m/g, '');
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => fail(`did not listen within ${startMs} ms`), startMs);
    const poll = setInterval(() => {
      if (text.includes('Prism is listening')) done();
    }, 50);
    function done() {
      clearTimeout(timer);
      clearInterval(poll);
      resolve();
    }
    function fail(why: string) {
      clearTimeout(timer);
      clearInterval(poll);
      child.kill();
      reject(new Error(`prism ${args[0]} ${why}:\n${text}`));
    }
    void exited.then(() => fail('exited'));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    log: () => text,
    stop: async () => {
      if (child.exitCode === null) child.kill();
      await exited;
    },
  };
}
