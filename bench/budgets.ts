/** The performance and size budgets of DESIGN.md, in one table. */
export const BUDGETS = {
  requestOverheadRatio: {
    limit: 1.6,
    unit: '×',
    what: 'getTransaction vs undici.request + JSON.parse, median',
  },
  coldImportRatio: {
    limit: 0.5,
    unit: '×',
    what: "cold import('merchant-wallet') vs import('stripe'), median",
  },
  loginBundleBytes: { limit: 1024, unit: 'B', what: 'merchant-wallet/login, min+gz' },
  webhooksBundleBytes: { limit: 8192, unit: 'B', what: 'merchant-wallet/webhooks with deps, min+gz' },
  clientBundleBytes: { limit: 14336, unit: 'B', what: 'whole client with deps, min+gz' },
  heapPerWaitBytes: { limit: 2048, unit: 'B', what: 'heap per waitForTransaction, 10,000 at once' },
  timersLeftAfterAbort: { limit: 0, unit: '', what: 'timers left after aborting 10,000 waits' },
} as const;

export type BudgetName = keyof typeof BUDGETS;
