import { build } from 'esbuild';
import { expect, test } from 'vitest';

async function inputsOf(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
    metafile: true,
    packages: 'external',
  });
  // Sources bundled in, and the packages left as imports.
  const imported = Object.values(result.metafile.outputs).flatMap((output) =>
    output.imports.map((one) => one.path),
  );
  return [...Object.keys(result.metafile.inputs), ...imported];
}

test.each([
  'src/index.ts',
  'src/webhooks/index.ts',
  'src/webhooks/adapters/index.ts',
  'src/login.ts',
  'src/testing/index.ts',
])('%s loads neither a database driver nor a store adapter', async (entry) => {
  const inputs = await inputsOf(entry);
  expect(
    inputs.filter((input) => /^(pg|redis|ioredis)$|src\/stores\/|src\/conformance\//.test(input)),
  ).toEqual([]);
});

test.each(['src/stores/postgres/index.ts', 'src/stores/redis/index.ts', 'src/conformance/index.ts'])(
  '%s loads neither the client nor the transport',
  async (entry) => {
    const inputs = await inputsOf(entry);
    expect(inputs.filter((input) => /src\/client\/|src\/transport\//.test(input))).toEqual([]);
  },
);

test("src/wallet/index.ts loads no database driver: the store adapters take the merchant's", async () => {
  const inputs = await inputsOf('src/wallet/index.ts');
  expect(inputs.filter((input) => /^(pg|redis|ioredis)$/.test(input))).toEqual([]);
});
