import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/system/**/*.test.ts'],
    setupFiles: ['test/setup/no-stray-console.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});
