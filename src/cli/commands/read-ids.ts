import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { CliError } from '../errors.js';

/**
 * Transaction ids from `source`, one per line, read lazily so reconciliation starts before the
 * input ends and memory stays flat for any input size. Surrounding whitespace (a Windows
 * line ending included) is dropped and blank lines are skipped.
 *
 * @param source `-` for `stdin`, otherwise a file path.
 * @throws {CliError} when the file cannot be opened or read, as a rejection of the iteration.
 */
export async function* readIds(source: string, stdin: Readable): AsyncGenerator<string> {
  const input = source === '-' ? stdin : await openFile(source);
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  try {
    for await (const line of lines) {
      const id = line.trim();
      if (id !== '') yield id;
    }
  } catch (error) {
    throw readFailure(source, error);
  } finally {
    lines.close();
    if (input !== stdin) input.destroy();
  }
}

/** Waits for the file to open, so a missing file is reported before any output. */
function openFile(path: string): Promise<Readable> {
  return new Promise((resolve, reject) => {
    const stream = createReadStream(path);
    stream.once('ready', () => {
      stream.off('error', reject);
      resolve(stream);
    });
    stream.once('error', (error) => reject(readFailure(path, error)));
  });
}

function readFailure(source: string, error: unknown): CliError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const reason =
    code === 'ENOENT'
      ? 'no such file'
      : code === 'EISDIR'
        ? 'is a directory'
        : code === 'EACCES'
          ? 'permission denied'
          : (error as Error).message;
  return new CliError(`cannot read ${source === '-' ? 'standard input' : source}: ${reason}`);
}

/** Passes `ids` through and reports how many there were once they end. */
export async function* countingIds(
  ids: AsyncIterable<string>,
  onEnd: (count: number) => void,
): AsyncGenerator<string> {
  let count = 0;
  for await (const id of ids) {
    count++;
    yield id;
  }
  onEnd(count);
}

/** How many ids a file holds, counted the way {@link readIds} reads them. */
export async function countIds(path: string, stdin: Readable): Promise<number> {
  let count = 0;
  for await (const _id of readIds(path, stdin)) count++;
  return count;
}
