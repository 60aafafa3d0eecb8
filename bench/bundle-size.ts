import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/** Bytes of `entry` bundled with its dependencies, minified and gzipped, as a browser or edge bundler would ship it. */
export async function bundledSize(entry: string): Promise<number> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error(`esbuild produced nothing for ${entry}`);
  return gzipSync(output.contents, { level: 9 }).length;
}
