import { build, type Metafile } from 'esbuild';
import { expect, test } from 'vitest';

/** The client bundled as a browser bundler would: the inputs it loads, and those of each lazy chunk. */
async function clientChunks() {
  const { metafile } = await build({
    entryPoints: ['bench/entries/client.ts'],
    bundle: true,
    minify: true,
    splitting: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    outdir: 'out',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const outputs: Metafile['outputs'] = metafile.outputs;
  const entry = Object.keys(outputs).find((path) => outputs[path]?.entryPoint === 'bench/entries/client.ts');
  const loaded = new Set<string>();
  const visit = (path: string) => {
    if (loaded.has(path)) return;
    loaded.add(path);
    for (const imported of outputs[path]?.imports ?? [])
      if (imported.kind === 'import-statement') visit(imported.path);
  };
  visit(entry as string);
  const inputsOf = (paths: string[]) =>
    new Set(paths.flatMap((path) => Object.keys(outputs[path]?.inputs ?? {})));
  return {
    loaded: inputsOf([...loaded]),
    lazy: inputsOf(Object.keys(outputs).filter((path) => !loaded.has(path))),
  };
}

test('a client loads the journaled send path and recovery only when it uses them: each is a chunk of its own', async () => {
  const { loaded, lazy } = await clientChunks();
  const rarePaths = [
    'src/client/journal-hook.ts',
    'src/client/sending-lease.ts',
    'src/journal/bounded.ts',
    'src/client/recover.ts',
    'src/client/resolve-outcome.ts',
    'src/settlement/sweep.ts',
    'src/transport/node-transport.ts',
  ];
  expect(rarePaths.filter((path) => loaded.has(path))).toEqual([]);
  expect(rarePaths.filter((path) => !lazy.has(path))).toEqual([]);
});
