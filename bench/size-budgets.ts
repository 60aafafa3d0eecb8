/**
 * The bundle-size budgets: deterministic (esbuild, minified, gzip level 9), so CI checks them
 * through `npm run size`; `npm run bench` prints them beside the timed budgets.
 */
export const SIZE_BUDGETS = {
  loginBundleBytes: {
    entry: 'src/login.ts',
    limit: 1024,
    unit: 'B',
    what: 'merchant-wallet/login, min+gz',
  },
  webhooksBundleBytes: {
    entry: 'src/webhooks/index.ts',
    limit: 8192,
    unit: 'B',
    what: 'merchant-wallet/webhooks with deps, min+gz',
  },
  clientBundleBytes: {
    entry: 'bench/entries/client.ts',
    limit: 22528,
    unit: 'B',
    what: 'whole client with deps (ky, zod/mini), min+gz',
  },
} as const;

export type SizeBudgetName = keyof typeof SIZE_BUDGETS;
