import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

// Type-only exports cannot be listed inside the type system, so the compiler lists them here.
const entry = (path: string) => fileURLToPath(new URL(`../../src/${path}`, import.meta.url));
const entries = { main: entry('index.ts'), login: entry('login.ts'), webhooks: entry('webhooks/index.ts') };
const program = ts.createProgram(Object.values(entries), {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  noEmit: true,
});
const checker = program.getTypeChecker();

function exportedNames(file: string): string[] {
  const source = program.getSourceFile(file);
  const symbol = source && checker.getSymbolAtLocation(source);
  if (!symbol) throw new Error(`no module symbol for ${file}`);
  return checker.getExportsOfModule(symbol).map((exported) => exported.getName());
}

describe('the main barrel exports every name, types included, of every sub-entry except testing', () => {
  const main = new Set(exportedNames(entries.main));

  test.each(['webhooks', 'login'] as const)(
    'nothing merchant-wallet/%s exports is missing from merchant-wallet',
    (name) => {
      const names = exportedNames(entries[name]);

      expect(names.length).toBeGreaterThan(0);
      expect(names.filter((exported) => !main.has(exported))).toEqual([]);
    },
  );
});
