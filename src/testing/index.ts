/**
 * `merchant-wallet/testing`: a stateful, in-memory Merchant Wallet service for
 * tests, served over real HTTP (`startSandboxServer`) or through msw
 * (`sandboxHandlers`; msw is an optional peer dependency loaded only there).
 * See docs/sandbox.md.
 *
 * @packageDocumentation
 */

export { INTERNAL_ERROR_TRIGGER } from './context.js';
export type { ErrorBodyShape } from './error-body.js';
export { ERROR_BODY_SHAPES } from './error-body.js';
export type {
  FaultAction,
  FaultHandle,
  FaultSpec,
  FaultTrigger,
  SandboxFaults,
  SandboxRoute,
} from './faults.js';
export type { SandboxRequestHandler } from './handle-request.js';
export { createSandboxRequestHandler } from './handle-request.js';
export type { SandboxHttpRequest, SandboxHttpResponse } from './http-response.js';
export type { SandboxErrorCode, SandboxProtocolErrorCode } from './http-status.js';
export { SANDBOX_ERROR_STATUS, SANDBOX_PROTOCOL_ERRORS } from './http-status.js';
export { ACCESS_DENIED_PARAM } from './login-handler.js';
export { MAX_AMOUNT } from './money.js';
export { sandboxHandlers } from './msw-handlers.js';
export type { SandboxServer, SandboxServerOptions } from './node-server.js';
export { startSandboxServer } from './node-server.js';
export type { SandboxBalances } from './read-models.js';
export type { SandboxUrls } from './routes.js';
export { API_ROUTES } from './routes.js';
export type { MerchantPatch, Sandbox, SandboxOptions } from './sandbox.js';
export { createSandbox } from './sandbox.js';
export type {
  ProviderBehavior,
  SandboxMerchantSeed,
  SandboxProviderSeed,
  SandboxSeed,
  SandboxTokenSeed,
  SandboxUserSeed,
} from './seed.js';
export { defaultSandboxSeed } from './seed.js';
export type { SettleOutcome } from './settlement.js';
export { PROVIDER_SHORT_REASON } from './settlement.js';
export type {
  SandboxTransaction,
  SandboxWebhookEvent,
  TransactionWebhookEvent,
  UserAuthorizedWebhookEvent,
} from './transactions.js';
export type {
  SandboxWebhooks,
  WebhookAttempt,
  WebhookDelivery,
  WebhookRetryOptions,
} from './webhook-dispatcher.js';
