import { configDefaults, defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * `npm run test:quick`: the unit layer for the edit-test loop, about a tenth of `npm test`'s time.
 * It leaves out what is slow by nature, measured per file: tests that start the CLI as a child
 * process (seconds each: a Node start, a sandbox, a signal), the fault matrix (every endpoint ×
 * transport × fault, latency faults included), the end-to-end runs against the sandbox, the soak and
 * the property fuzz, and the type tests (`npm run typecheck` checks the same files). `npm test`
 * runs everything and is what CI runs.
 */
const slow = [
  'test/system/**',
  'test/cli/{demo,login-url,main,reconcile,status}.test.ts',
  'test/cli/sandbox{,-auto-settle,-control,-revoke,-usage}.test.ts',
  'test/faults/**',
  'test/security/logger-redaction.test.ts',
  'test/integration/**',
  'test/fuzz/**',
  'test/soak.test.ts',
];

/**
 * Files that subscribe to the process-wide diagnostics channels: each runs in a fresh module graph.
 * Folders are named by their test files only: this list is a project's `include`, and a helper it
 * matched would be reported as a file with no tests.
 */
const global = [
  'test/diagnostics/**/*.test.ts',
  'test/transport/send-receiver.test.ts',
  'test/webhooks/bundle.test.ts',
  'test/polling/poll-events.test.ts',
  'test/otel/**/*.test.ts',
];

const { setupFiles, testTimeout, hookTimeout } = base.test ?? {};
const common = { setupFiles, testTimeout, hookTimeout };

export default defineConfig({
  test: {
    projects: [
      {
        // The rest share their workers' module cache instead of each loading the SDK afresh: on 2
        // cores that takes the run from about 100 s to about 45 s.
        test: {
          ...common,
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...slow, ...global],
          isolate: false,
        },
      },
      { test: { ...common, name: 'isolated', include: global } },
    ],
  },
});
