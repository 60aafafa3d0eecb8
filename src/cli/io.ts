import type { Readable } from 'node:stream';

/** A signal that asks a long-running command to stop. */
export type ShutdownSignal = 'SIGINT' | 'SIGTERM';

/**
 * Everything a command touches outside its arguments. Commands get it as a parameter rather
 * than reaching for `process`, so they can run inside a test as well as in the bin.
 */
export interface CliIo {
  /** Environment variables; the API key is read from here only. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Standard input, for `reconcile -`. */
  readonly stdin: Readable;
  /** Writes to standard output. */
  out(text: string): void;
  /** Writes to standard error. */
  err(text: string): void;
  /** Resolves with the first SIGINT or SIGTERM received from now on. */
  waitForShutdown(): Promise<ShutdownSignal>;
  /**
   * Set when standard error is a terminal: progress lines and colours go there only then.
   * `columns` keeps a progress line on one line, since a wrapped one cannot be redrawn.
   */
  readonly stderrTerminal?: { readonly columns: number } | undefined;
  /** Whether standard output is a terminal, so colours there would be seen rather than stored. */
  readonly stdoutIsTerminal?: boolean | undefined;
}

/** The real process: its environment, streams and signals. */
export function processIo(): CliIo {
  return {
    stderrTerminal: process.stderr.isTTY ? { columns: process.stderr.columns || 80 } : undefined,
    stdoutIsTerminal: process.stdout.isTTY === true,
    env: process.env,
    stdin: process.stdin,
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    waitForShutdown: () =>
      new Promise((resolve) => {
        const stop = (signal: ShutdownSignal) => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          resolve(signal);
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      }),
  };
}
