// The whole client: everything of the main entry except the login and webhook helpers, which have their own budgets.
export {
  isWalletApiError,
  isWalletError,
  parseDateCompleted,
  reconcile,
  WalletApiError,
  WalletClient,
  WalletError,
  WalletOutcomeUnknownError,
  waitForTransaction,
  watchTransaction,
} from '../../src/index.js';
