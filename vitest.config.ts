import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/system/**', 'node_modules/**'],
    setupFiles: ['test/setup/no-stray-console.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    typecheck: {
      enabled: true,
      include: ['test/**/*.test-d.ts'],
      tsconfig: './tsconfig.json',
    },
  },
});
