/**
 * The names this entry writes. HTTP ones are the stable semantic conventions' (`url.template` is
 * still in development there); the rest are the SDK's own, under `merchant_wallet.`. The tests
 * compare each convention name with `@opentelemetry/semantic-conventions`, which this entry does not
 * load: a dependency for a few strings would be one more peer to install.
 */
export const ATTR = {
  /** HTTP method of an attempt. */
  httpMethod: 'http.request.method',
  /** HTTP status the API answered. */
  httpStatus: 'http.response.status_code',
  /** How many attempts came before this one (from the second attempt on). */
  resendCount: 'http.request.resend_count',
  /** The API's host name. */
  serverAddress: 'server.address',
  /** The API's port. */
  serverPort: 'server.port',
  /** Base URL and path of the attempt; never a query or credentials. */
  urlFull: 'url.full',
  /** The low-cardinality path template, such as `/merchants/transactions/status/{transaction_id}`. */
  urlTemplate: 'url.template',
  /** Why a call or attempt failed: an error code, a status or an error class. */
  errorType: 'error.type',
  /** The API operation: `deposit`, `withdraw`, `status` or `providers`. */
  endpoint: 'merchant_wallet.endpoint',
  /** The payment's `reference_id`: what links its spans. */
  referenceId: 'merchant_wallet.reference_id',
  /** The service's transaction id. */
  transactionId: 'merchant_wallet.transaction_id',
  /** The transaction's status. */
  transactionStatus: 'merchant_wallet.transaction_status',
  /** The `x-request-id` the API answered. */
  requestId: 'merchant_wallet.request_id',
  /** How a payment call ended: `applied`, `refused` or `unknown`. */
  paymentOutcome: 'merchant_wallet.payment.outcome',
  /** Whether the call re-sent a payment whose outcome was unknown. */
  paymentResend: 'merchant_wallet.payment.resend',
  /** The webhook event type. */
  webhookType: 'merchant_wallet.webhook.type',
  /** Whether `verifyWith` confirmed the event. */
  webhookVerified: 'merchant_wallet.webhook.verified',
  /** The dedupe store's answer: `claimed`, `duplicate` or `in_progress`. */
  webhookDedupe: 'merchant_wallet.webhook.dedupe',
  /** How the delivery was answered. */
  webhookOutcome: 'merchant_wallet.webhook.outcome',
  /**
   * What learned the final status, as the journal's `settledBy` records it: `answer`, `status_read`,
   * `webhook`, `resolve_outcome`, `recover` or `sweeper`.
   */
  settlementPath: 'merchant_wallet.settlement.path',
  /** Whether the settlement run completed (`onSettled` ran to its end). */
  settled: 'merchant_wallet.settlement.settled',
  /** What the sweeper did with an intent: `resend`, `read` or `settle`. */
  sweeperAction: 'merchant_wallet.sweeper.action',
  /** How the swept intent ended. */
  sweeperOutcome: 'merchant_wallet.sweeper.outcome',
} as const;

/** The instruments this entry records. */
export const METRIC = {
  /** Stable HTTP client metric, in seconds. */
  httpDuration: 'http.client.request.duration',
  /** One payment call, all its attempts, in seconds; `merchant_wallet.payment.outcome` tells how it ended. */
  paymentDuration: 'merchant_wallet.payment.duration',
  /** Payment calls that ended in `WalletOutcomeUnknownError` (or a journal failure that may send them later). */
  outcomeUnknown: 'merchant_wallet.payment.outcome_unknown',
  /** From a payment's record to its settlement, in seconds, by settling path. */
  settlementLatency: 'merchant_wallet.settlement.latency',
  /** Age of the oldest payment still pending in the journal, in seconds. */
  oldestPending: 'merchant_wallet.payment.oldest_pending.age',
  /** Intents the sweeper claimed, by what it did and how each ended. */
  sweeperClaims: 'merchant_wallet.sweeper.claims',
  /** Webhook deliveries the dedupe store answered, by its answer. */
  webhookDedupe: 'merchant_wallet.webhook.dedupe',
} as const;

/** The semantic conventions' advice for `http.client.request.duration`, in seconds. */
export const HTTP_DURATION_BUCKETS = [
  0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
];

/** Settlement takes from seconds (an instant answer) to days (a provider deposit left pending). */
export const SETTLEMENT_BUCKETS = [1, 5, 15, 60, 300, 900, 3600, 4 * 3600, 24 * 3600, 3 * 24 * 3600];

/** The instrumentation scope's name: the package's. */
export const SCOPE_NAME = 'merchant-wallet';
