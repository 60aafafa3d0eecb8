import { build } from 'esbuild';
import { expect, test } from 'vitest';

test('the main entry bundles zod’s core only: neither zod/mini’s schema classes nor zod’s pattern table', async () => {
  const result = await build({
    entryPoints: ['src/index.ts'],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    write: false,
    metafile: true,
  });
  // Inputs that left code in the bundle: zod's index visits every module, tree-shaking drops most.
  const [output] = Object.values(result.metafile.outputs);
  const zodInputs = Object.entries(output?.inputs ?? {})
    .filter(([input, { bytesInOutput }]) => input.includes('node_modules/zod/') && bytesInOutput > 0)
    .map(([input]) => input);
  expect(zodInputs.some((input) => input.includes('zod/v4/core/'))).toBe(true);
  // Each costs the client kilobytes: zod/mini wraps every schema in a class, and regexes.js holds
  // every string format's pattern (fields.ts copies the one e-mail pattern it needs).
  expect(zodInputs.filter((input) => /zod\/v4\/mini\/|zod\/v4\/core\/regexes\.js$/.test(input))).toEqual([]);
});
