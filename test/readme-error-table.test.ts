import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';

const root = new URL('../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

/** Every public entry, from the tsconfig paths that map `merchant-wallet/*` to its source. */
const entries: Record<string, string> = Object.fromEntries(
  Object.entries(JSON.parse(read('tsconfig.json')).compilerOptions.paths as Record<string, string[]>).map(
    ([name, [source]]) => [name, source ?? ''],
  ),
);

/** The class names in the first column of the README's error table (under "Handling errors"). */
function readmeErrorTable(): Set<string> {
  const readme = read('README.md');
  const section = readme.slice(readme.indexOf('### Handling errors'));
  const table = section.slice(section.indexOf('| class |'));
  const rows = table.slice(0, table.indexOf('\n\n')).split('\n');
  return new Set(rows.map((row) => /^\| `(\w+)` \|/.exec(row)?.[1]).filter((name) => name !== undefined));
}

/** The names of the exported classes of a module that are errors (`Error` on their prototype chain). */
function errorClasses(module: Record<string, unknown>): string[] {
  return Object.entries(module)
    .filter(([, value]) => typeof value === 'function' && value.prototype instanceof Error)
    .map(([name]) => name);
}

describe('the README error table', () => {
  test('the entries read from tsconfig are the package exports', () => {
    const exported = Object.keys(JSON.parse(read('package.json')).exports)
      // JSON exports (package.json, the OpenAPI documents) hold no code and no error class.
      .filter((path) => !path.endsWith('.json'))
      .map((path) => path.replace(/^\./, 'merchant-wallet'));
    expect(Object.keys(entries).sort()).toEqual(exported.sort());
  });

  test('lists every error class exported by any entry', async () => {
    const listed = readmeErrorTable();
    expect(listed.size).toBeGreaterThan(10);
    const missing: string[] = [];
    for (const [name, source] of Object.entries(entries)) {
      const module = (await import(new URL(source, root).href)) as Record<string, unknown>;
      const classes = errorClasses(module);
      if (name === 'merchant-wallet') expect(classes).toContain('WalletJournalError');
      missing.push(...classes.filter((cls) => !listed.has(cls)).map((cls) => `${cls} (${name})`));
    }
    expect(missing).toEqual([]);
  });
});
