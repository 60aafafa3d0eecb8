import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';

/** The gzipped bytes of one bundled entry: what loads with it, and what it may import later. */
export interface BundleSize {
  /** The entry chunk and every chunk it imports statically: what a browser or edge runtime loads. */
  readonly loaded: number;
  /** Chunks reached only through a dynamic `import()` (the Node-only transport): never fetched elsewhere. */
  readonly lazy: number;
  /** The sweeper's chunk (`sweepOnce`, `supervise`, `journalHealth`), imported on a client's first sweep. */
  readonly sweeper: number;
  /** The traced paths' chunk, imported on the first call made while anyone listens on the SDK's tracing channels. */
  readonly tracing: number;
}

/**
 * Bytes of `entry` bundled with its dependencies, minified and gzipped chunk by chunk, as a browser or
 * edge bundler would ship it: code behind a dynamic `import()` is split into chunks of its own, which
 * are counted apart because only the runtime that takes that branch ever fetches them.
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
  const entryOutput = Object.keys(outputs).find((path) => outputs[path]?.entryPoint !== undefined);
  if (!entryOutput) throw new Error(`esbuild produced nothing for ${entry}`);
  const loaded = staticallyLoaded(outputs, entryOutput);
  let loadedBytes = 0;
  let lazyBytes = 0;
  let sweeperBytes = 0;
  let tracingBytes = 0;
  for (const file of result.outputFiles) {
    const path = Object.keys(outputs).find((output) => file.path.endsWith(`/${output}`));
    if (!path) throw new Error(`esbuild wrote ${file.path}, which its metafile does not list`);
    const bytes = gzipSync(file.contents, { level: 9 }).length;
    if (loaded.has(path)) loadedBytes += bytes;
    else if (outputs[path]?.entryPoint?.includes('settlement/fleet')) sweeperBytes += bytes;
    else if (outputs[path]?.entryPoint?.includes('transport/traced-attempt')) tracingBytes += bytes;
    else lazyBytes += bytes;
  }
  return { loaded: loadedBytes, lazy: lazyBytes, sweeper: sweeperBytes, tracing: tracingBytes };
}

/** `entryOutput` and every output it reaches through static imports. */
function staticallyLoaded(outputs: Metafile['outputs'], entryOutput: string): Set<string> {
  const loaded = new Set<string>();
  const visit = (path: string) => {
    if (loaded.has(path)) return;
    loaded.add(path);
    for (const imported of outputs[path]?.imports ?? []) {
      if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
    }
  };
  visit(entryOutput);
  return loaded;
}
