/** Finds the code examples of a Markdown page or a TypeScript source file, with the line each starts on. */

/** One example: its source file, the line before its first line of code (1-based), and the code. */
export interface Example {
  readonly source: string;
  /** The code's first line is `line + 1` in the source. */
  readonly line: number;
  readonly code: string;
}

const FENCE = /^```(\S*)(.*)$/;
const CHECKED_LANGUAGES = new Set(['ts', 'typescript']);

/** The fenced ```ts blocks of a Markdown text, except those marked `no-check`. */
export function markdownExamples(source: string, text: string): Example[] {
  const examples: Example[] = [];
  const lines = text.split('\n');
  let open: { line: number; checked: boolean; code: string[] } | undefined;
  for (const [index, line] of lines.entries()) {
    const fence = FENCE.exec(line.trim());
    if (open === undefined) {
      if (fence) {
        const language = fence[1] ?? '';
        const checked = CHECKED_LANGUAGES.has(language) && !(fence[2] ?? '').includes('no-check');
        open = { line: index + 1, checked, code: [] };
      }
    } else if (line.trim() === '```') {
      if (open.checked) examples.push({ source, line: open.line, code: open.code.join('\n') });
      open = undefined;
    } else {
      open.code.push(line);
    }
  }
  return examples;
}

/** The `@example` blocks of the TSDoc comments in a TypeScript text. */
export function tsdocExamples(source: string, text: string): Example[] {
  const examples: Example[] = [];
  const lines = text.split('\n');
  for (const [index, line] of lines.entries()) {
    if (!/^\s*\*\s*@example\s*$/.test(line)) continue;
    const code: string[] = [];
    for (const next of lines.slice(index + 1)) {
      if (/^\s*\*\//.test(next) || /^\s*\*\s*@\w+/.test(next)) break;
      code.push(next.replace(/^\s*\* ?/, ''));
    }
    examples.push({ source, line: index + 1, code: code.join('\n') });
  }
  return examples;
}

/** The examples of one file, by its kind. */
export function extractExamples(source: string, text: string): Example[] {
  if (source.endsWith('.md')) return markdownExamples(source, text);
  if (source.endsWith('.ts')) return tsdocExamples(source, text);
  return [];
}
