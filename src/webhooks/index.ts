export type { TraceScope } from '../diagnostics/channel.js';
export type { WalletWebhookTrace } from '../diagnostics/webhook-trace.js';
export type { WalletIssue } from '../errors.js';
export { WalletConfigError, WalletError } from '../errors.js';
export type { TransactionResult } from '../schemas/responses.js';
export type { TransactionWebhook, UserAuthorizedWebhook } from '../schemas/webhook.js';
export { DEFAULT_WEBHOOK_MAX_BYTES } from './body.js';
export type { DedupeClaim, MemoryDedupeStoreOptions, WebhookDedupeStore } from './dedupe.js';
export { createMemoryDedupeStore } from './dedupe.js';
export { WalletWebhookError } from './errors.js';
export type {
  TransactionContext,
  WebhookContext,
  WebhookErrorInfo,
  WebhookHandler,
  WebhookHandlerOptions,
} from './handler.js';
export { createWebhookHandler } from './handler.js';
export type {
  NodeHandlerOptions,
  NodeWebhookHandler,
  NodeWebhookRequest,
  NodeWebhookResponse,
} from './node.js';
export { toNodeHandler } from './node.js';
export type {
  ParseWebhookOptions,
  TransactionEvent,
  UserAuthorizedEvent,
  WebhookBody,
  WebhookEvent,
} from './parse.js';
export { parseWebhookEvent } from './parse.js';
export type { FloodOptions } from './read-gate.js';
export type {
  TransactionReader,
  UnverifiedTransaction,
  UnverifiedTransactionEvent,
  VerifiedField,
  VerifiedTransaction,
} from './verify.js';
