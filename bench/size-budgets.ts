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
  // 28.5 KiB: the client as it stands (28,686 B) with a little room, so growth is a decision. Of it,
  // ky is 4.9 KB (the fetch transport uses it only to build the Request: the SDK's own send loop does
  // retries, timeouts and money safety), zod/mini about 6.6 KB, and the Node-only transport (agents,
  // proxies, decompression) about 1.8 KB that a browser or edge runtime never runs. Those two are
  // where the next cuts are; the money-safety checks, journal, tracing and wait-on-webhook are not.
  clientBundleBytes: {
    entry: 'bench/entries/client.ts',
    limit: 29184,
    unit: 'B',
    what: 'whole client with deps (ky, zod/mini), min+gz',
  },
} as const;

export type SizeBudgetName = keyof typeof SIZE_BUDGETS;
