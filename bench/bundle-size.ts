import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';

/**
 * The chunks a client imports dynamically, each by the source file its `import()` names: what a
 * runtime fetches only when it takes that path. A lazy chunk not named here fails the measurement,
 * so a new one gets a budget of its own.
 */
const LAZY_CHUNKS = {
  /** The Node-only transport, imported on Node's first request: never fetched elsewhere. */
  lazy: 'src/transport/node-transport.ts',
  /** The sweeper (`sweepOnce`, `supervise`, `journalHealth`), imported on a client's first sweep. */
  sweeper: 'src/settlement/fleet.ts',
  /** The journaled send path, imported with a client's first journaled payment or status read. */
  journal: 'src/client/journal-hook.ts',
  /** `recover()`, `resolveOutcome` and the sweeper's re-sends, imported on the first of them. */
  recovery: 'src/client/recovery.ts',
  /** The traced paths, imported on the first call made while anyone listens on the tracing channels. */
  tracing: 'src/transport/traced-attempt.ts',
} as const;

/**
 * The gzipped bytes of one bundled entry: what loads with it, and what each of its dynamic imports
 * fetches beyond that (its chunk and the chunks only it and other lazy paths share).
 */
export type BundleSize = { readonly loaded: number } & {
  readonly [part in keyof typeof LAZY_CHUNKS]: number;
};

/**
 * Bytes of `entry` bundled with its dependencies, minified and gzipped chunk by chunk, as a browser or
 * edge bundler would ship it: code behind a dynamic `import()` is split into chunks of its own, which
 * are counted apart because only the runtime that takes that branch ever fetches them. A chunk that two
 * lazy paths share counts in both, as each path fetches it.
 */
export async function bundleSize(entry: string): Promise<BundleSize> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    splitting: true,
    outdir: 'out',
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    logLevel: 'silent',
  });
  const outputs = result.metafile.outputs;
  // esbuild names entry points relative to the working directory.
  const entryOutput = Object.keys(outputs).find((path) => {
    const entryPoint = outputs[path]?.entryPoint;
    return entryPoint !== undefined && resolve(entryPoint) === resolve(entry);
  });
  if (!entryOutput) throw new Error(`esbuild produced nothing for ${entry}`);
  const bytes = new Map<string, number>();
  for (const file of result.outputFiles) {
    const path = Object.keys(outputs).find((output) => file.path.endsWith(`/${output}`));
    if (!path) throw new Error(`esbuild wrote ${file.path}, which its metafile does not list`);
    bytes.set(path, gzipSync(file.contents, { level: 9 }).length);
  }
  const sum = (paths: Iterable<string>) =>
    [...paths].reduce((total, path) => total + (bytes.get(path) ?? 0), 0);
  const loaded = staticallyLoaded(outputs, entryOutput, new Set());
  const counted = new Set(loaded);
  const size: Record<string, number> = { loaded: sum(loaded) };
  for (const [part, source] of Object.entries(LAZY_CHUNKS)) {
    const chunk = Object.keys(outputs).find((path) => outputs[path]?.entryPoint?.endsWith(source));
    const fetched = chunk === undefined ? new Set<string>() : staticallyLoaded(outputs, chunk, loaded);
    for (const path of fetched) counted.add(path);
    size[part] = sum(fetched);
  }
  const unnamed = Object.keys(outputs).filter((path) => !counted.has(path));
  if (unnamed.length > 0) throw new Error(`lazy chunks without a budget: ${unnamed.join(', ')}`);
  return size as BundleSize;
}

/** `chunk` and every output it reaches through static imports, but those in `skip`. */
function staticallyLoaded(
  outputs: Metafile['outputs'],
  chunk: string,
  skip: ReadonlySet<string>,
): Set<string> {
  const reached = new Set<string>();
  const visit = (path: string) => {
    if (reached.has(path) || skip.has(path)) return;
    reached.add(path);
    for (const imported of outputs[path]?.imports ?? []) {
      if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
    }
  };
  visit(chunk);
  return reached;
}
