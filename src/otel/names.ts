/**
 * The names this entry writes. HTTP ones are the stable semantic conventions' (`url.template` is
 * still in development there); the rest are the SDK's own, under `merchant_wallet.`. The tests
 * compare each convention name with `@opentelemetry/semantic-conventions`, which this entry does not
 * load: a dependency for a few strings would be one more peer to install.
 */
export const ATTR = {
  httpMethod: 'http.request.method',
  httpStatus: 'http.response.status_code',
  resendCount: 'http.request.resend_count',
  serverAddress: 'server.address',
  serverPort: 'server.port',
  urlFull: 'url.full',
  urlTemplate: 'url.template',
  errorType: 'error.type',
  endpoint: 'merchant_wallet.endpoint',
  referenceId: 'merchant_wallet.reference_id',
  transactionId: 'merchant_wallet.transaction_id',
  transactionStatus: 'merchant_wallet.transaction_status',
  requestId: 'merchant_wallet.request_id',
  paymentOutcome: 'merchant_wallet.payment.outcome',
  paymentResend: 'merchant_wallet.payment.resend',
  webhookType: 'merchant_wallet.webhook.type',
  webhookVerified: 'merchant_wallet.webhook.verified',
  webhookDedupe: 'merchant_wallet.webhook.dedupe',
  webhookOutcome: 'merchant_wallet.webhook.outcome',
  settlementPath: 'merchant_wallet.settlement.path',
  settled: 'merchant_wallet.settlement.settled',
  sweeperAction: 'merchant_wallet.sweeper.action',
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
