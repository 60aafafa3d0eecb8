import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    login: 'src/login.ts',
    webhooks: 'src/webhooks/index.ts',
    testing: 'src/testing/index.ts',
    cli: 'src/cli/main.ts',
    postgres: 'src/stores/postgres/index.ts',
    redis: 'src/stores/redis/index.ts',
    conformance: 'src/conformance/index.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  splitting: true,
  treeshake: true,
  // zod/mini is many small modules; bundling its used parts keeps a cold import fast.
  noExternal: [/^zod/],
});
