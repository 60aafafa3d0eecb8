import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { expect, test } from 'vitest';
import { SIZE_BUDGETS } from '../../bench/size-budgets.js';

test('the webhooks entry bundles with its dependencies within its size budget, without the client, the transport, zod/mini or a node: import', async () => {
  const result = await build({
    entryPoints: ['src/webhooks/index.ts'],
    bundle: true,
    minify: true,
    format: 'esm',
    write: false,
    metafile: true,
  });
  const inputs = Object.keys(result.metafile.inputs);
  expect(inputs.filter((input) => /src\/client|src\/transport/.test(input))).toEqual([]);
  expect(inputs.some((input) => input.includes('node_modules/zod/'))).toBe(true);
  // Its schemas are built on zod's core: zod/mini's schema classes would cost it 600 B.
  expect(inputs.filter((input) => input.includes('node_modules/zod/v4/mini/'))).toEqual([]);
  // Tracing loads node:diagnostics_channel through process.getBuiltinModule, so workers can bundle it.
  expect(inputs.filter((input) => input.startsWith('node:'))).toEqual([]);
  expect(gzipSync(result.outputFiles[0]!.contents).byteLength).toBeLessThanOrEqual(
    SIZE_BUDGETS.webhooksBundleBytes.limit,
  );
});
