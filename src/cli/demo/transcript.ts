/** Where transcript lines go: stdout when run as a script, a buffer in tests. */
export type LineWriter = (line: string) => void;

/** A step that failed, named so the reader knows where the flow stopped. */
export class DemoStepError extends Error {
  override readonly name = 'DemoStepError';

  constructor(
    readonly step: string,
    override readonly cause: unknown,
  ) {
    super(`step "${step}" failed: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

const LABEL_WIDTH = 16;

/**
 * One aligned line per step. `run` prints the line only once the step has succeeded, so a
 * transcript never shows a step that did not happen.
 */
export interface Transcript {
  line(label: string, detail: string): void;
  run(label: string, step: () => Promise<string>): Promise<void>;
}

/** Creates a transcript writing to `write`. */
export function createTranscript(write: LineWriter): Transcript {
  const line = (label: string, detail: string) => write(`${label.padEnd(LABEL_WIDTH)}${detail}`);
  return {
    line,
    async run(label, step) {
      let detail: string;
      try {
        detail = await step();
      } catch (error) {
        throw error instanceof DemoStepError ? error : new DemoStepError(label, error);
      }
      line(label, detail);
    },
  };
}

/**
 * Shows a credential the way dashboards do: its kind prefix and last three characters
 * (`tok_sandbox_alice` → `tok_…ice`), enough to tell two apart, too little to use one.
 */
export function mask(secret: string): string {
  const prefix = /^[a-z]+_/i.exec(secret)?.[0] ?? '';
  return `${prefix}…${secret.slice(-3)}`;
}
