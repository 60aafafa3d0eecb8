import { inspect } from 'node:util';

/** A logger line as recorded: the message and its metadata. */
export interface RecordedLine {
  readonly level: string;
  readonly message: string;
  readonly meta: unknown;
}

/** Every rendering of an error a user might log or ship somewhere. */
export function renderingsOf(error: unknown): string[] {
  const renderings = [inspect(error, { depth: 10, showHidden: true })];
  try {
    renderings.push(JSON.stringify(error) ?? '');
  } catch (failure) {
    renderings.push(`JSON.stringify threw: ${String(failure)}`);
  }
  if (error instanceof Error) renderings.push(error.message, String(error), error.stack ?? '');
  return renderings;
}

/** How many times any of `secrets` occurs in `texts`. */
export function countSecrets(texts: readonly string[], secrets: readonly string[]): number {
  let count = 0;
  for (const text of texts) {
    for (const secret of secrets) count += text.split(secret).length - 1;
  }
  return count;
}

/** The text of a recorded log line: its message and its metadata as JSON and as inspected. */
export function renderLine(line: RecordedLine): string[] {
  return [line.message, JSON.stringify(line.meta) ?? '', inspect(line.meta, { depth: 10, showHidden: true })];
}
