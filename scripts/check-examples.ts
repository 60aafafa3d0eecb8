/**
 * `npm run check:examples`: every TypeScript code block of README.md and docs/*.md, and every TSDoc
 * `@example` under src/, type-checks under strict TypeScript against the built package (run
 * `npm run build` first): `merchant-wallet` and its subpaths resolve to dist/ through the package's
 * own `exports`, as they do for a merchant.
 *
 * Conventions:
 * - A block is a module of its own, so top-level `await` works and its imports are its own.
 * - The package's exports are in scope: a snippet that does not import a name of `merchant-wallet`
 *   or one of its subpaths gets it imported for it (a TSDoc example shows its symbol in context).
 * - Names a snippet uses without declaring them (`wallet`, `pool`, `userToken`, ...) come from the
 *   ambient declarations of scripts/examples/globals.d.ts: the few objects every page assumes.
 * - A block whose info string says `no-check` (```ts no-check) is a sketch, such as a signature
 *   listing, and is left out. Keep them rare.
 *
 * Errors are reported at the Markdown or source line they come from. Exits 1 on any error, and when
 * it finds no block at all (so it can never pass by checking nothing).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Example, extractExamples } from './examples/extract.js';
import { implicitImports, packageExports } from './examples/implicit-imports.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, '.examples-check');

function sources(): { path: string; text: string }[] {
  const markdown = ['README.md', ...readdirSync(join(root, 'docs')).map((name) => `docs/${name}`)].filter(
    (path) => path.endsWith('.md'),
  );
  const typescript = (readdirSync(join(root, 'src'), { recursive: true }) as string[])
    .filter((path) => path.endsWith('.ts'))
    .map((path) => `src/${path}`);
  return [...markdown, ...typescript].map((path) => ({ path, text: readFileSync(join(root, path), 'utf8') }));
}

const examples: Example[] = sources().flatMap(({ path, text }) => extractExamples(path, text));
if (examples.length === 0) {
  process.stderr.write('check:examples found no code block: the extractor is broken\n');
  process.exit(1);
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
for (const ambient of ['globals.d.ts', 'modules.d.ts'])
  cpSync(join(root, 'scripts/examples', ambient), join(out, ambient));
const exported = packageExports(root);
const byFile = new Map<string, Example>();
for (const [index, example] of examples.entries()) {
  const file = `${String(index).padStart(3, '0')}-${example.source.replaceAll(/[^a-z0-9]+/gi, '_')}-${example.line}.ts`;
  byFile.set(file, example);
  // One line of imports first, so the block's line n is the file's line n + 1; `export {}` makes
  // every block a module, even one without an import.
  writeFileSync(join(out, file), `${implicitImports(example.code, exported)}\n${example.code}\nexport {};\n`);
}
writeFileSync(
  join(out, 'tsconfig.json'),
  JSON.stringify({
    compilerOptions: {
      strict: true,
      exactOptionalPropertyTypes: true,
      target: 'es2022',
      // The repository's own package.json is the nearest: `merchant-wallet` resolves to itself,
      // through its `exports`, as the package does for a merchant.
      module: 'esnext',
      moduleResolution: 'bundler',
      lib: ['es2023'],
      types: ['node'],
      skipLibCheck: true,
      noEmit: true,
      allowJs: false,
    },
    include: ['*.ts'],
  }),
);

const started = performance.now();
let output = '';
try {
  execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', out], {
    cwd: root,
    encoding: 'utf8',
  });
} catch (error) {
  output = String((error as { stdout?: string }).stdout ?? error);
}
const seconds = ((performance.now() - started) / 1000).toFixed(1);

// tsc reports `file(line,col): error TS…`; point it back at the block's source line.
const errors = output
  .split('\n')
  .filter((line) => line.includes('error TS'))
  .map((line) => {
    const match = /^(?:\.examples-check\/)?([^(]+)\((\d+),(\d+)\): (.*)$/.exec(
      relative(root, line).replace(/^\.\.\//, ''),
    );
    const example = match ? byFile.get(match[1]?.split('/').pop() ?? '') : undefined;
    if (!match || !example) return line;
    return `${example.source}:${example.line + Number(match[2]) - 1}: ${match[4]}`;
  });
if (errors.length > 0) {
  process.stderr.write(`${errors.join('\n')}\n\n${errors.length} error(s) in ${examples.length} examples\n`);
  process.exit(1);
}
process.stdout.write(`check:examples: ${examples.length} examples type-check (${seconds} s)\n`);
