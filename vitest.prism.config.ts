import { defineConfig } from 'vitest/config';

/**
 * The suites scripts/openapi-prism.ts (`npm run test:contract`) runs through Prism: through its
 * validation proxy, the contract suites (every endpoint, every error code in every body shape), the
 * flow suites (login sessions and the token lifecycle, settlement, journal reconciliation) and the
 * webhook suite; against its mock, the client's core flows. Suites that inject dropped or reset
 * connections stay out: a proxy turns those into answers of its own, which is no test of the
 * contract. One file at a time, so the proxy's log reads in order.
 */
export default defineConfig({
  test: {
    include: [
      'test/integration/{endpoints,error-codes,webhooks}.test.ts',
      'test/auth/{lifecycle,login-sessions}.test.ts',
      'test/settlement/{settle,audit-journal}.test.ts',
      'test/openapi/prism/*.prism-test.ts',
    ],
    setupFiles: ['test/setup/no-stray-console.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    fileParallelism: false,
  },
});
