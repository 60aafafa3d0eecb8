/**
 * Checks that no import of `src/` runs from a lower layer to a higher one (the table is in
 * `rules.ts`). Prints every offending import and exits 1, or prints a count and exits 0.
 * Usage: tsx scripts/layers/check.ts
 */
import { readdirSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { layerProblems, type ModuleImport } from './rules.js';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
// Static imports, re-exports and dynamic imports of a relative path.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)'(\.{1,2}\/[^']+)'/g;

/** Every relative import between files of `src/`, by paths relative to `src/`. */
function importsOfTree(): ModuleImport[] {
  const files = (readdirSync(SRC, { recursive: true }) as string[])
    .map((file) => file.split('\\').join('/'))
    .filter((file) => file.endsWith('.ts'));
  return files.flatMap((file) =>
    [...readFileSync(`${SRC}${file}`, 'utf8').matchAll(SPECIFIER)].flatMap((match) => {
      const target = posix.normalize(posix.join(posix.dirname(file), match[1] as string));
      // Imports that leave src/ (package.json) belong to no layer.
      return target.startsWith('../') ? [] : [{ file, target: target.replace(/\.js$/, '.ts') }];
    }),
  );
}

const imports = importsOfTree();
const problems = layerProblems(imports);
if (problems.length > 0) {
  console.error(`${problems.length} imports run against the layers:\n${problems.join('\n')}`);
  process.exit(1);
}
console.log(`layers: ${imports.length} imports, none runs up a layer`);
