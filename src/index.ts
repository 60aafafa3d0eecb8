/**
 * The main entry, grouped by topic: the client first, then its errors and error codes, the
 * payment journal, the token vault and login sessions, settlement and the sweeper, polling and
 * status reads, webhooks, the wire schemas, and the diagnostics channels' payloads. The stores on a
 * server (`merchant-wallet/postgres`, `/redis`), the one-call composition, the sandbox and the
 * conformance checks are entries of their own.
 *
 * @packageDocumentation
 * @module merchant-wallet
 */

// The client: one method per endpoint, and the work that runs on its own journal and vault.
export { WalletClient } from './client/client.js';
export type { WalletAgents, WalletClientOptions, WalletHttpAgent } from './client/options.js';
export type { SharedClientOptions } from './client/shared-options.js';
export type {
  DepositOptions,
  PaymentOptions,
  RequestOptions,
  StatusReadOptions,
  UserRequestOptions,
  WithdrawOptions,
} from './client/request-options.js';
export type { WalletPromise } from './client/wallet-promise.js';
export type { Journaled } from './client/journal-hook.js';
export type { OutcomeResolution } from './client/resolve-outcome.js';
export type { RecoveredIntent, RecoverOptions, RecoveryReport } from './client/recover.js';
export type { WalletLogLevel } from './client/log-level.js';
export type { WalletLogger } from './logger.js';
export type { ResponseHeaders } from './transport/attempt.js';
export type { WalletResponse, WithResponse } from './transport/response.js';

// Errors: every one extends WalletError; the error codes are one table.
export type { WalletIssue } from './errors.js';
export {
  WalletAbortError,
  WalletApiError,
  WalletConfigError,
  WalletConnectionError,
  WalletError,
  WalletJournalError,
  WalletOutcomeUnknownError,
  WalletRequestValidationError,
  WalletResponseValidationError,
  WalletTimeoutError,
} from './errors.js';
export { isWalletApiError, isWalletError } from './guards.js';
export type {
  DepositErrorCode,
  EndpointErrorCode,
  ProvidersErrorCode,
  StatusErrorCode,
  WalletApiErrorCode,
  WalletEndpoint,
  WalletErrorCode,
  WalletErrorCodeTable,
  WithdrawErrorCode,
} from './error-codes.js';
export {
  defaultErrorMessage,
  endpointsForCode,
  isWalletErrorCode,
  WALLET_ERROR_CODES,
  walletErrorCodes,
} from './error-codes.js';

// The payment journal: intents recorded before sending, and their states.
export { createMemoryJournal } from './journal/memory.js';
export { closeIntent } from './journal/close.js';
export { listIntents } from './journal/query.js';
export { acceptedState } from './journal/merge.js';
export type {
  DueQuery,
  IntentPage,
  IntentQuery,
  ListIntentsOptions,
  NewPaymentIntent,
  PaymentIntent,
  PaymentIntentEndpoint,
  PaymentIntentState,
  PaymentIntentUpdate,
  PaymentJournal,
  SettledBy,
  SettlementQueryResult,
  SettlementTransaction,
  SweptUpdate,
} from './journal/types.js';
export {
  ACCEPTED_STATES,
  FINAL_STATES,
  FINAL_STATUSES,
  OPEN_STATES,
  PAYMENT_INTENT_STATES,
  SETTLED_BY,
} from './journal/types.js';

// The token vault, login sessions and re-authorization.
export type { TokenVault, TokenVaultOptions, VaultLoginSettings } from './auth/vault.js';
export { createTokenVault } from './auth/vault.js';
export type {
  LinkedVault,
  TokenCheck,
  TokenCheckClient,
  UserCallContext,
  VaultLink,
} from './auth/vault-link.js';
export type { TokenKeyring } from './auth/keyring.js';
export type { RewrapOptions, RewrapReport } from './auth/rewrap.js';
export type { TokenStore, TokenStoreEntry } from './auth/token-store.js';
export {
  checkTokenStoreWrite,
  MAX_TOKEN_STORE_KEY_LENGTH,
  MAX_TOKEN_STORE_VALUE_LENGTH,
} from './auth/token-store.js';
export { createMemoryTokenStore } from './auth/memory-store.js';
export type {
  CompleteLoginOptions,
  LoginCompletion,
  LoginSessions,
  ReconnectOptions,
  StartedLogin,
  StartLoginOptions,
} from './auth/login-sessions.js';
export type { ReauthorizationNotice } from './auth/reauthorization.js';
export type { LoginStateProblem } from './auth/errors.js';
export {
  isReauthorizationRequired,
  WalletLoginStateError,
  WalletReauthorizationRequiredError,
  WalletTokenDecryptionError,
  WalletTokenStoreError,
} from './auth/errors.js';
export type { LoginUrlField, LoginUrlOptions } from './login.js';
export { buildLoginUrl, WalletLoginUrlError } from './login.js';

// Settlement: onSettled and onRefused, the sweeper, journal health and the daily audit.
export type { OnRefused, OnSettled, SettledContext, SettledStatus } from './settlement/settle.js';
export type { SweepOptions, SweepReport, SweptIntent, UserTokenFor } from './settlement/sweep.js';
export type { SweepSchedule } from './settlement/schedule.js';
export type { SuperviseOptions } from './settlement/supervise.js';
export type {
  JournalHealth,
  JournalHealthOptions,
  SharedKey,
  StuckIntent,
  StuckReason,
  TransactionEventsHealthSource,
} from './settlement/health.js';
export type { TransactionEventsHealth, TransactionEventsState } from './polling/event-source-health.js';
export type { JournalHealthAlarm } from './settlement/alarms.js';
export { HEALTH_CHANNEL } from './settlement/health-channel.js';
export type { WebhookHealth, WebhookHealthOptions } from './settlement/webhook-silence.js';
export type {
  AuditJournalOptions,
  JournalAudit,
  JournalDisagreement,
  JournalDisagreementKind,
  JournalReconciliation,
  ReconcileJournalOptions,
} from './settlement/audit-journal.js';
export { auditJournal, reconcileJournal } from './settlement/audit-journal.js';

// Polling and status reads: one transaction, a stream of them, or many at once.
export type { WaitForTransactionOptions, WatchTransactionOptions } from './polling/poll.js';
export { waitForTransaction, watchTransaction } from './polling/poll.js';
export { WalletPollTimeoutError } from './polling/errors.js';
export type { TransactionEvents } from './polling/transaction-events.js';
export { createTransactionEvents } from './polling/transaction-events.js';
export type {
  TransactionEventContext,
  TransactionEventLike,
  TransactionEventListener,
  TransactionEventSource,
  TransactionEventSubscription,
  Unsubscribable,
} from './polling/event-source.js';
export type { ReconcileOptions, ReconcileProgress, ReconcileResult } from './reconcile/reconcile.js';
export { reconcile } from './reconcile/reconcile.js';

// Webhooks: parsing, the verifying handler and its dedupe store.
export type {
  FloodOptions,
  DedupeClaim,
  MemoryDedupeStoreOptions,
  NodeHandlerOptions,
  NodeWebhookHandler,
  NodeWebhookRequest,
  NodeWebhookResponse,
  ParseWebhookOptions,
  TransactionContext,
  TransactionEvent,
  TransactionReader,
  TransactionWebhook,
  UnverifiedTransaction,
  UnverifiedTransactionEvent,
  UserAuthorizedEvent,
  UserAuthorizedWebhook,
  VerifiedField,
  VerifiedTransaction,
  WebhookBody,
  WebhookContext,
  WebhookDedupeStore,
  WebhookErrorInfo,
  WebhookEvent,
  WebhookHandler,
  WebhookHandlerOptions,
} from './webhooks/index.js';
export {
  createMemoryDedupeStore,
  createWebhookHandler,
  DEFAULT_WEBHOOK_MAX_BYTES,
  parseWebhookEvent,
  toNodeHandler,
  WalletWebhookError,
} from './webhooks/index.js';

// The wire: request and response schemas, and helpers for their values.
export { DepositRequest, WithdrawRequest } from './schemas/requests.js';
export {
  DepositResult,
  MobilePaymentProvider,
  ProviderList,
  TransactionResult,
  WithdrawResult,
} from './schemas/responses.js';
export { TransactionStatus } from './schemas/fields.js';
export { parseDateCompleted } from './schemas/date-completed.js';
export { sameAmount } from './amount.js';
export { MAX_EMAIL_LENGTH, MAX_USER_TOKEN_LENGTH } from './limits.js';

// Diagnostics: what the client publishes on node:diagnostics_channel.
export type { TraceScope } from './diagnostics/channel.js';
export type { WalletPaymentTrace } from './diagnostics/payment-trace.js';
export type { WalletRequestTrace } from './transport/request-trace.js';
export type { SettlementPath, WalletSettlementTrace } from './diagnostics/settlement-trace.js';
export type { WalletWebhookTrace } from './diagnostics/webhook-trace.js';
