import { defineConfig } from 'tsup';
import { mangleDirectory } from './scripts/build/mangle-locals.js';

/** The bin, a program rather than a library: its stack traces need not name its functions. */
const PROGRAMS = new Set(['cli.js', 'cli.cjs']);

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
    otel: 'src/otel/index.ts',
    wallet: 'src/wallet/index.ts',
    adapters: 'src/webhooks/adapters/index.ts',
  },
  format: ['esm', 'cjs'],
  // tsup writes the typings twice, .d.ts and .d.cts, identical but for their specifiers;
  // scripts/share-typings.ts (run by `npm run build` after tsup) makes each .d.ts re-export its .d.cts.
  dts: true,
  clean: true,
  // No source maps: the package does not ship src/, so maps could only point at absent files or
  // carry every source inside them (2.4 MB, most of the tarball). Whitespace and syntax are minified
  // (324 kB packed became 283 kB, under the 300 kB budget) but esbuild renames no identifier; the
  // types carry the documentation. Once built (`onSuccess`), the local names (variables,
  // parameters, module-private bindings) are shortened while every function, class and private
  // method keeps the name a stack trace shows, and the CLI, a program, loses its names too
  // (scripts/build/mangle-locals.ts): 392.2 kB packed became 357.5 kB.
  sourcemap: false,
  target: 'node20',
  splitting: true,
  // The sandbox finds the package's OpenAPI documents from import.meta.url; the CommonJS build gets
  // it from __filename through tsup's shim (only modules that read it carry the shim).
  shims: true,
  treeshake: true,
  // zod is many small modules; bundling its used parts keeps a cold import fast.
  noExternal: [/^zod/],
  esbuildOptions(options, context) {
    Object.assign(options, { minifyWhitespace: true, minifySyntax: true, minifyIdentifiers: false });
    // The CommonJS build loads its lazy chunks with require(): Jest and other CommonJS module
    // sandboxes refuse import() unless run with experimental flags.
    if (context.format === 'cjs') options.supported = { ...options.supported, 'dynamic-import': false };
  },
  async onSuccess() {
    await mangleDirectory('dist/', PROGRAMS);
  },
});
