import { configDefaults, defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * `npm run test:quick`: the unit layer for the edit-test loop, about a fifth of `npm test`'s time.
 * It leaves out what is slow by nature, measured per file: tests that start the CLI as a child
 * process (seconds each: a Node start, a sandbox, a signal), the fault matrix (every endpoint ×
 * transport × fault, latency faults included), the end-to-end runs against the sandbox, the soak and
 * the property fuzz, and the type tests (`npm run typecheck` checks the same files). `npm test`
 * runs everything and is what CI runs.
 */
export default mergeConfig(
  base,
  defineConfig({
    test: {
      exclude: [
        ...configDefaults.exclude,
        'test/system/**',
        'test/cli/{demo,login-url,main,reconcile,status}.test.ts',
        'test/cli/sandbox{,-auto-settle,-control,-revoke,-usage}.test.ts',
        'test/faults/**',
        'test/security/logger-redaction.test.ts',
        'test/integration/**',
        'test/fuzz/**',
        'test/soak.test.ts',
      ],
      typecheck: { enabled: false },
    },
  }),
);
