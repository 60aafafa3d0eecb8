/**
 * `merchant-wallet/testing`: a stateful, in-memory Merchant Wallet service for
 * tests, served over real HTTP (`startSandboxServer`) or through msw
 * (`sandboxHandlers`; msw is an optional peer dependency loaded only there).
 * See docs/sandbox.md.
 *
 * @packageDocumentation
 */

export type { WalletEndpoint } from '../error-codes.js';
export type { CertifyHandlerOptions } from './certify/handler.js';
export { certifyHandler } from './certify/handler.js';
export type { CertifyEndpointOptions } from './certify/run.js';
export { certifyEndpoint } from './certify/run.js';
export type {
  CertifyCheckId,
  CertifyCheckResult,
  CertifyCheckText,
  CertifyReport,
  CertifyVerdict,
} from './certify/types.js';
export { CERTIFY_CHECKS } from './certify/types.js';
export type { ForgeryKind, ForgeryRequest } from './forge/forgery.js';
export { DEFAULT_FORGED_BYTES, FORGERY_KINDS } from './forge/forgery.js';
export { CONTROL_KEY_HEADER, CONTROL_PREFIX } from './http/control.js';
export type { ErrorBodyShape } from './http/error-body.js';
export { ERROR_BODY_SHAPES } from './http/error-body.js';
export type {
  FaultAction,
  FaultHandle,
  FaultSpec,
  FaultTrigger,
  SandboxFaults,
} from './http/faults.js';
export type { SandboxHttpRequest, SandboxHttpResponse } from './http/response.js';
export type { ApiRoute, SandboxRequestHandler, SandboxUrls } from './http/router.js';
export { API_ROUTES, createSandboxRequestHandler } from './http/router.js';
export type { SandboxErrorCode, SandboxProtocolError, SandboxProtocolErrorCode } from './http/status.js';
export { SANDBOX_ERROR_STATUS, SANDBOX_PROTOCOL_ERRORS } from './http/status.js';
export { ACCESS_DENIED_PARAM, SANDBOX_LANDING_PATH } from './login/handler.js';
export type { SandboxLimit, SandboxLimitName } from './model/bounds.js';
export { SANDBOX_LIMITS } from './model/bounds.js';
export type { SandboxClock } from './model/clock.js';
export { parseDuration } from './model/clock.js';
export { INTERNAL_ERROR_TRIGGER } from './model/context.js';
export type { DeliveryMode, DeliveryPlan } from './model/delivery-plan.js';
export { DELIVERY_MODES } from './model/delivery-plan.js';
export type {
  AuthorizedEvent,
  ResetEvent,
  RevokedEvent,
  SandboxEvent,
  SettledEvent,
  WebhookAttemptEvent,
  WebhookHeldEvent,
} from './model/events.js';
export { MAX_AMOUNT } from './model/money.js';
export type { SandboxBalances } from './model/read-models.js';
export type { SandboxScenario } from './model/scenarios.js';
export { SANDBOX_SCENARIOS } from './model/scenarios.js';
export type {
  ProviderBehavior,
  SandboxMerchantSeed,
  SandboxProviderSeed,
  SandboxSeed,
  SandboxTokenSeed,
  SandboxUserSeed,
} from './model/seed.js';
export { defaultSandboxSeed } from './model/seed.js';
export type {
  SandboxTransaction,
  SandboxWebhookEvent,
  TransactionWebhookEvent,
  UserAuthorizedWebhookEvent,
} from './model/transactions.js';
export type { BalanceTarget } from './rules/admin.js';
export type { RevokeResult, RevokeTarget } from './rules/revoke.js';
export { SandboxNotFoundError } from './rules/revoke.js';
export type { SettleOutcome } from './rules/settlement.js';
export { PROVIDER_SHORT_REASON } from './rules/settlement.js';
export { createSandbox } from './sandbox.js';
export type { MerchantPatch, Sandbox, SandboxOptions } from './sandbox-types.js';
export type { SandboxMswHandler } from './serve/msw-handlers.js';
export { sandboxHandlers } from './serve/msw-handlers.js';
export type { SandboxServer, SandboxServerOptions } from './serve/node-server.js';
export { startSandboxServer } from './serve/node-server.js';
export { DEFAULT_WEBHOOK_SCHEDULE_MS } from './serve/webhook-retry.js';
export type {
  ForgedDelivery,
  SandboxWebhooks,
  WebhookAttempt,
  WebhookDelivery,
  WebhookRetryOptions,
  WebhookRetryPolicy,
} from './serve/webhook-types.js';
