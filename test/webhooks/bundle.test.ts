import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { expect, test } from 'vitest';

test('the webhooks entry bundles with its dependencies to at most 8 KB min+gz, without ky or the client', async () => {
  const result = await build({
    entryPoints: ['src/webhooks/index.ts'],
    bundle: true,
    minify: true,
    format: 'esm',
    write: false,
    metafile: true,
  });
  const inputs = Object.keys(result.metafile.inputs);
  expect(inputs.filter((input) => /node_modules\/ky\/|src\/client|src\/transport/.test(input))).toEqual([]);
  expect(inputs.some((input) => input.includes('node_modules/zod/'))).toBe(true);
  expect(gzipSync(result.outputFiles[0]!.contents).byteLength).toBeLessThanOrEqual(8 * 1024);
});
