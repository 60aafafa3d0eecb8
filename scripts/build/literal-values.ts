/**
 * The string values a module's code holds: every string literal and every template's cooked text, in
 * source order. A renaming that only shortens names leaves them as they were; a printer that escaped
 * or re-encoded one wrongly would not (SWC writes `…` for `\u2026`, `\xd7` for `\xD7`: the same values).
 */
import { type ModuleKind, parseModule, walk } from './stack-names.js';

/** Every string literal's value and template chunk's cooked text in `code`, in source order. */
export function literalValues(code: string, kind: ModuleKind): string[] {
  const values: string[] = [];
  walk(parseModule(code, kind), (node) => {
    if (node.type === 'StringLiteral') values.push(`'${(node as unknown as { value: string }).value}`);
    if (node.type === 'TemplateElement') values.push(`\`${(node as unknown as { cooked: string }).cooked}`);
  });
  return values;
}

/** Throws, quoting the first difference, unless `after` holds the same string values as `before`. */
export function checkLiteralValues(before: string, after: string, kind: ModuleKind): void {
  const was = literalValues(before, kind);
  const is = literalValues(after, kind);
  const at = was.findIndex((value, index) => is[index] !== value);
  if (at !== -1) {
    throw new Error(`renaming changed the string ${JSON.stringify(was[at])} to ${JSON.stringify(is[at])}`);
  }
  if (was.length !== is.length) throw new Error(`renaming made ${was.length} strings ${is.length}`);
}
