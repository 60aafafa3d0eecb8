/**
 * Runs after tsup (`npm run build`): makes each entry's ESM typings (`dist/X.d.ts`) re-export its
 * CommonJS typings (`dist/X.d.cts`) instead of carrying a second copy of every declaration and its
 * TSDoc, and deletes the ESM declaration chunks nothing refers to any more. The typings were half the
 * tarball's weight and tsup writes them twice, identical but for their import specifiers.
 *
 * The ESM side re-exports the CommonJS side, not the other way round: an ES module may import a
 * CommonJS one under every `moduleResolution`, while a `.d.cts` re-exporting a `.d.ts` is a
 * `require()` of an ES module, which TypeScript rejects under `module: node16` (TS1479, reported to
 * projects with `skipLibCheck: false`). zod, whose types the declarations use, publishes only
 * `.d.cts` typings too, so ESM and CommonJS projects see the same zod types either way.
 *
 * `export *` does not carry a default export (and a CommonJS default seen from ESM is the whole
 * module), so an entry with one stops the build, as do ESM and CommonJS typings that differ beyond
 * their specifiers. Usage: tsx scripts/share-typings.ts (after tsup).
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

interface Conditions {
  readonly import?: { readonly types?: string };
  readonly require?: { readonly types?: string };
}
const { exports } = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as {
  exports: Record<string, Conditions | string>;
};

const RELATIVE = /\bfrom '(\.\/[^']+)'|\bimport '(\.\/[^']+)'/g;

/** A declaration file's text, with its relative specifiers blanked (chunk names carry hashes). */
function normalized(file: string): string {
  return readFileSync(`${root}${file}`, 'utf8').replace(RELATIVE, (_match, from?: string) =>
    from === undefined ? "import './'" : "from './'",
  );
}

/** The declaration files `entry` imports, directly or not (`./x.js` is `./x.d.ts`, `./x.cjs` is `./x.d.cts`). */
function chunksOf(entry: string, found = new Set<string>()): Set<string> {
  for (const [, from, bare] of readFileSync(`${root}${entry}`, 'utf8').matchAll(RELATIVE)) {
    const file = posix.join(posix.dirname(entry), (from ?? bare)!.replace(/\.(c?)js$/, '.d.$1ts'));
    if (found.has(file)) continue;
    if (!existsSync(`${root}${file}`))
      throw new Error(`${entry} imports ${file}, which the build did not write`);
    found.add(file);
    chunksOf(file, found);
  }
  return found;
}

const entries = Object.values(exports).flatMap((conditions) => {
  const esm = typeof conditions === 'string' ? undefined : conditions.import?.types;
  const cjs = typeof conditions === 'string' ? undefined : conditions.require?.types;
  return esm?.endsWith('.d.ts') && cjs?.endsWith('.d.cts')
    ? [{ esm: posix.normalize(esm), cjs: posix.normalize(cjs) }]
    : [];
});
if (entries.length === 0) throw new Error('package.json exports name no .d.ts and .d.cts typings');
if (!entries.every(({ esm }) => existsSync(`${root}${esm}`)))
  throw new Error('dist/ is incomplete: run tsup first');

/** What an entry's ESM typings say once shared. */
const reexport = (cjs: string) => `export * from './${posix.basename(cjs, '.d.cts')}.cjs';\n`;

const unused = new Set<string>();
for (const { esm, cjs } of entries) {
  if (readFileSync(`${root}${esm}`, 'utf8') === reexport(cjs)) continue; // shared by an earlier run
  const text = readFileSync(`${root}${cjs}`, 'utf8');
  if (/\bexport default\b|\bas default\b|\bexport =/.test(text)) {
    throw new Error(`${cjs} has a default export, which export * from an ES module would not carry`);
  }
  const esmChunks = chunksOf(esm);
  const sides = [
    [esm, ...[...esmChunks].map(normalized).sort()],
    [cjs, ...[...chunksOf(cjs)].map(normalized).sort()],
  ].map(([entry, ...chunks]) => [normalized(entry!), ...chunks].join('\0'));
  if (sides[0] !== sides[1]) throw new Error(`${esm} and ${cjs} declare different things`);
  for (const chunk of esmChunks) if (chunk.endsWith('.d.ts')) unused.add(chunk);
}
for (const { esm, cjs } of entries) {
  writeFileSync(`${root}${esm}`, reexport(cjs));
}
// A chunk of the ESM typings that is also an entry (webhooks.d.ts, imported by index.d.ts) stays.
for (const { esm } of entries) unused.delete(esm);
for (const chunk of unused) rmSync(`${root}${chunk}`);
